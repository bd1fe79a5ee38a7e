import type {
  OperationResponse,
  sandboxAdvanceClock,
  sandboxGetClock,
  sandboxRunJobs,
} from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { sandbox } from "../../api.ts";
import { dateTime } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";

/** The marketplace's clock: moved forward, and the jobs that fall due run on demand. */
export function Clock(props: { token: string }) {
  const clock = useLoad(() => sandbox<typeof sandboxGetClock>("GET", "/sandbox/clock", props.token), []);
  const [jobs, setJobs] = useState<OperationResponse<typeof sandboxRunJobs>["jobs"]>([]);
  const [message, error, run] = useAction();
  const advance = (seconds: number) =>
    run(async () => {
      clock.set(
        await sandbox<typeof sandboxAdvanceClock>("POST", "/sandbox/clock/advance", props.token, {
          body: { seconds },
        }),
      );
      return t("Clock moved forward.");
    });
  return (
    <section aria-labelledby="clock-title" class="panel">
      <h2 id="clock-title">{t("Clock and jobs")}</h2>
      {clock.value ? (
        <p>
          {t("Marketplace time: {d}", { d: dateTime(clock.value.now) })} ·{" "}
          {t("{n} seconds ahead", { n: clock.value.offset_seconds })}
        </p>
      ) : null}
      <div class="row">
        {(
          [
            [1800, "+30 minutes"],
            [3600 * 12, "+12 hours"],
            [86400, "+1 day"],
            [86400 * 7, "+7 days"],
          ] as const
        ).map(([seconds, label]) => (
          <button type="button" key={seconds} onClick={() => advance(seconds)}>
            {t(label)}
          </button>
        ))}
        <button
          type="button"
          onClick={() =>
            run(async () => {
              const answer = await sandbox<typeof sandboxRunJobs>("POST", "/sandbox/jobs/run", props.token);
              setJobs(answer.jobs);
              return t("Jobs run.");
            })
          }
        >
          {t("Run due jobs")}
        </button>
      </div>
      {jobs.length ? (
        <ul aria-label={t("Jobs run")}>
          {jobs.map((job) => (
            <li key={job.name}>
              {job.name}: {job.processed}
            </li>
          ))}
        </ul>
      ) : null}
      <Feedback message={message} error={error} />
    </section>
  );
}
