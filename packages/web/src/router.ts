import { useEffect, useState } from "preact/hooks";

type Listener = () => void;
const listeners = new Set<Listener>();

/** Moves to a page of the app without reloading it. */
export function navigate(url: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

window.addEventListener("popstate", () => {
  for (const listener of listeners) listener();
});

// Links inside the app move without a reload; others (the API reference) load as usual.
document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
    return;
  const anchor = (event.target as Element | null)?.closest?.("a");
  if (!anchor || anchor.target || anchor.hasAttribute("download")) return;
  const url = new URL(anchor.href, location.href);
  if (
    url.origin !== location.origin ||
    !/^\/($|goods\/|signin|signup|confirm-email|me|console|ops)/.test(url.pathname)
  )
    return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});

/** The current location, redrawn on every move. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}
