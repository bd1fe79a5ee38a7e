/* The demo market's defaults, apart from its builder so that the CLI can name them in its help without loading it. */

/**
 * Traders with a password and an API token of their own, written to the credentials file: every
 * trader of the default demo. The others (a demo of a million users) share one argon2id hash of a
 * password nobody was told, and have no API token: a hash costs 30-100 ms of CPU. The hashes run
 * in the password-hashing worker threads (`domain/password-hash.ts`, one or two at a time) while
 * the build goes on (before, Node 24's `crypto.argon2` held the event loop: 1,000 hashes held the
 * build for 113 s), but a million would still take the pool the better part of a day. They trade in
 * the world's history, sell and bid; nobody signs in as them.
 */
export const CREDENTIALED_TRADERS = 100;

export const DEMO_DEFAULTS = {
  seed: 1,
  listings: 40_000,
  traders: 100,
  days: 30,
} as const;
