import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n.ts";
import { onLiveEvent, type LiveEvent } from "../../live.ts";
import { Feedback } from "../../use-data.tsx";

/**
 * A version that moves on every live event the section `concerns` (every one unless told) and on
 * `refresh`: an account section reloads what it shows when it changes (the section's `useLoad`
 * lists it among its dependencies), and only the page of its list it shows.
 */
export function useLiveRefresh(concerns: (event: LiveEvent) => boolean = () => true): [number, () => void] {
  const [version, setVersion] = useState(0);
  useEffect(
    () =>
      onLiveEvent((event) => {
        if (concerns(event)) setVersion((value) => value + 1);
      }),
    [],
  );
  return [version, () => setVersion((value) => value + 1)];
}

/**
 * The outcome of a batch write answered per item (`{id: "OK" | reason}`), beside the control that
 * sent it: how many were done, and each refused one by its goods name (`names`, by id) with why.
 */
export function BatchOutcome(props: {
  results: Record<string, string> | null;
  error: string;
  names: Record<string, string>;
}) {
  if (props.error) return <Feedback message="" error={props.error} />;
  if (!props.results) return null;
  const failures = Object.entries(props.results).filter(([, value]) => value !== "OK");
  const done = t("{n} done", { n: Object.keys(props.results).length - failures.length });
  const refused = failures.map(([id, reason]) => `${props.names[id] ?? id}: ${reason}`);
  return failures.length === 0 ? (
    <Feedback message={done} error="" />
  ) : (
    <Feedback message="" error={[done, ...refused].join(" · ")} />
  );
}
