import { useEffect, useState } from "preact/hooks";

/**
 * How every page talks to the server: `useLoad` for what it shows, `useAction` for what it does,
 * `Feedback` for the outcome. A page holds no loading or failure state of its own beside these,
 * so each page's loading, empty and error states read the same way.
 */

interface Loaded<T> {
  /** The last answer, `undefined` until the first; kept while a reload runs, so nothing blinks. */
  value: T | undefined;
  /** Why the last load failed, `""` after one that answered. */
  error: string;
  /** Replaces the value with what a write answered, without another read. */
  set: (value: T) => void;
}

/**
 * Loads with `load` when the page opens and whenever one of `deps` changes (and every `every` ms
 * while shown, for what changes without an event). An answer that arrives after the next load
 * started, or after the page closed, is dropped, so a slow answer never overwrites a newer one.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  options: { every?: number } = {},
): Loaded<T> {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState("");
  useEffect(() => {
    let current = true;
    const read = () =>
      load()
        .then((answer) => {
          if (!current) return;
          setValue(() => answer);
          setError("");
        })
        .catch((failure: Error) => {
          if (current) setError(failure.message);
        });
    void read();
    const timer = options.every ? setInterval(read, options.every) : undefined;
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, deps);
  return { value, error, set: (next: T) => setValue(() => next) };
}

/**
 * A form's or button's outcome (docs/design/website-actions.md#outcomes-beside-their-control):
 * `run` clears the last one, awaits the work and keeps its message (a `status`) or its failure
 * (an `alert`) with the key of the control that started it (`at`: a row's id, "" for a lone form),
 * so the page shows it beside that control (`Feedback` with `here`). `busy` is true while the work
 * runs, for a button that must not be pressed twice.
 */
export function useAction(): [
  message: string,
  error: string,
  run: (work: () => Promise<string>, at?: string) => Promise<void>,
  busy: boolean,
  at: string,
] {
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [at, setAt] = useState("");
  const run = async (work: () => Promise<string>, key = "") => {
    setMessage("");
    setError("");
    setAt(key);
    setBusy(true);
    try {
      setMessage(await work());
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return [message, error, run, busy, at];
}

/**
 * The one way an outcome is shown: a success as a polite `status`, a refusal as an assertive
 * `alert`, both live regions a screen reader announces without moving focus. With `at` and
 * `here`, only the control whose key started the action (`at === here`) shows it, so the outcome
 * lands beside its button, not at the foot of the page.
 */
export function Feedback(props: { message: string; error: string; at?: string; here?: string }) {
  if ((props.at ?? "") !== (props.here ?? "")) return null;
  return (
    <>
      {props.message ? (
        <p role="status" aria-live="polite" class="outcome">
          {props.message}
        </p>
      ) : null}
      {props.error ? (
        <p role="alert" aria-live="assertive" class="outcome error">
          {props.error}
        </p>
      ) : null}
    </>
  );
}
