import { useState } from "preact/hooks";

/**
 * A form's or button's outcome: `run` clears the last one, awaits the work and shows its message
 * (a `status`) or its failure (an `alert`), the roles the browser tests and screen readers find.
 */
export function useAction(): [string, string, (work: () => Promise<string>) => Promise<void>] {
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const run = async (work: () => Promise<string>) => {
    setMessage("");
    setError("");
    try {
      setMessage(await work());
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return [message, error, run];
}

export function Feedback(props: { message: string; error: string }) {
  return (
    <>
      {props.message ? <p role="status">{props.message}</p> : null}
      {props.error ? <p role="alert">{props.error}</p> : null}
    </>
  );
}
