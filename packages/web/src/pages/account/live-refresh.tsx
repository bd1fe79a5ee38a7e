import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n.ts";
import { onLiveEvent } from "../../live.ts";

/**
 * A version that moves on every live event and on `refresh`: an account section reloads what it
 * shows when it changes (the section's `useLoad` lists it among its dependencies).
 */
export function useLiveRefresh(): [number, () => void] {
  const [version, setVersion] = useState(0);
  useEffect(() => onLiveEvent(() => setVersion((value) => value + 1)), []);
  return [version, () => setVersion((value) => value + 1)];
}

/** The outcome of a batch write answered per item (`{id: "OK" | reason}`): how many were done, and why not the others. */
export function BatchOutcome(props: { results: Record<string, string> | null; error: string }) {
  if (props.error) return <p role="alert">{props.error}</p>;
  if (!props.results) return null;
  const failures = Object.entries(props.results).filter(([, value]) => value !== "OK");
  return (
    <p role="status">
      {t("{n} done", { n: Object.keys(props.results).length - failures.length })}
      {failures.map(([id, reason]) => ` · ${id}: ${reason}`).join("")}
    </p>
  );
}
