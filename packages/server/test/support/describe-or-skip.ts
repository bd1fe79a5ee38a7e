import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, test } from "node:test";

/**
 * `describe` for a suite that needs a service the run may not have (`TEST_DATABASE_URL`,
 * `TEST_REDIS_URL`). Without it the suite is reported as one skipped test, with the reason:
 * node:test's summary counts skipped tests but not skipped suites, so a plain
 * `describe(name, { skip })` would leave the run saying "skipped 0".
 */
export function describeOrSkip(name: string, options: { skip: string | false }, body: () => void): void {
  if (options.skip) test(name, { skip: options.skip }, () => {});
  else describe(name, body);
}

/**
 * Suites that start `skinmarket` processes on the embedded database whatever `TEST_DATABASE_URL`
 * says (the CLI, `npm start`, the README): the PostgreSQL run would only repeat them.
 */
export const EMBEDDED_ONLY =
  process.env.TEST_DATABASE_URL !== undefined &&
  "starts skinmarket on the embedded database only, as npm test already does";

/** Debian's Chromium, which the website's tests drive (`apt-get install -y chromium`; `.ci/run` installs it). */
export const CHROMIUM = "/usr/bin/chromium";

export const NO_CHROMIUM =
  !existsSync(CHROMIUM) && `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;

/** Debian's python3, which the Python bot example runs on (python3-requests, python3-cryptography; `.ci/run` installs them). */
export const DEBIAN_PYTHON = "/usr/bin/python3";

/** Why the Python bot cannot run here, or false; asked when needed (it starts python3), not on import. */
export function noDebianPythonPackages(): string | false {
  const found = spawnSync(DEBIAN_PYTHON, ["-c", "import requests, cryptography"], { stdio: "ignore" });
  return (
    found.status !== 0 &&
    `${DEBIAN_PYTHON} cannot import requests and cryptography (apt-get install -y python3-requests python3-cryptography)`
  );
}
