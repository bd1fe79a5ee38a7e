import { useEffect, useRef } from "preact/hooks";

/** What Tab can reach inside a dialog. */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A `<dialog>` opened as a real modal while its component is mounted
 * (docs/design/website.md#the-modal-dialog): `showModal()` makes the page behind it inert and moves
 * focus in; Tab and Shift+Tab wrap around inside it; Escape closes it and tells `onDismiss`
 * (its owner then unmounts it); on unmount focus goes back to what opened it.
 */
export function useModal<T extends HTMLDialogElement>(onDismiss: () => void) {
  const ref = useRef<T>(null);
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    // Escape closes a modal dialog by itself; its owner then unmounts it.
    const closed = () => dismiss.current();
    const trap = (event: KeyboardEvent) => {
      if (event.key !== "Tab") return;
      const stops = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (element) => element.getClientRects().length > 0,
      );
      const first = stops[0];
      const last = stops.at(-1);
      if (!first || !last) return;
      const inside = dialog.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    dialog.addEventListener("close", closed);
    dialog.addEventListener("keydown", trap);
    return () => {
      dialog.removeEventListener("close", closed);
      dialog.removeEventListener("keydown", trap);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return ref;
}
