import { STEAM_HOSTS } from "./steam-hosts.ts";

/** What a bot needs to reach the Steam face, as `skinmarket steam env` prints it. */
export interface SteamEnv {
  address: string;
  port: number;
  caFile: string;
  bundleFile: string;
  hosts: readonly string[];
  /** Variables for the bot's environment: trust the CA, and reach Steam's names through the proxy. */
  env: {
    NODE_EXTRA_CA_CERTS: string;
    REQUESTS_CA_BUNDLE: string;
    SSL_CERT_FILE: string;
    HTTPS_PROXY: string;
    NODE_USE_ENV_PROXY: "1";
  };
  /** The hosts-file line for the other way in (root, and the face on port 443 or a forward to it). */
  hostsLine: string;
}

export function steamEnv(input: {
  address: string;
  port: number;
  caFile: string;
  bundleFile: string;
}): SteamEnv {
  // A face listening on every address is reached on loopback from the same machine.
  const address = input.address === "0.0.0.0" || input.address === "::" ? "127.0.0.1" : input.address;
  const proxyHost = address.includes(":") ? `[${address}]` : address;
  return {
    address,
    port: input.port,
    caFile: input.caFile,
    bundleFile: input.bundleFile,
    hosts: STEAM_HOSTS,
    env: {
      NODE_EXTRA_CA_CERTS: input.caFile,
      REQUESTS_CA_BUNDLE: input.bundleFile,
      SSL_CERT_FILE: input.bundleFile,
      HTTPS_PROXY: `http://${proxyHost}:${input.port}`,
      NODE_USE_ENV_PROXY: "1",
    },
    hostsLine: `${address} ${STEAM_HOSTS.join(" ")}`,
  };
}

/** The shell lines, each way in with why. */
export function steamEnvText(env: SteamEnv): string {
  const forward =
    env.port === 443
      ? "the face listens on 443 already."
      : `the face listens on ${env.port}: start it with STEAM_FACE_PORT=443, or forward port 443 to ${env.port}.`;
  return [
    `# The sandbox's Steam face: ${env.hosts.join(", ")} on ${env.address}:${env.port}.`,
    "# Trust its CA (Node reads NODE_EXTRA_CA_CERTS only at start; Python's requests, curl and OpenSSL read the bundle):",
    `export NODE_EXTRA_CA_CERTS=${shellQuoted(env.env.NODE_EXTRA_CA_CERTS)}`,
    `export REQUESTS_CA_BUNDLE=${shellQuoted(env.env.REQUESTS_CA_BUNDLE)}`,
    `export SSL_CERT_FILE=${shellQuoted(env.env.SSL_CERT_FILE)}`,
    "# Way 1, no root: the face is the HTTPS proxy for Steam's names (Node 24 honours HTTPS_PROXY with",
    "# NODE_USE_ENV_PROXY=1, Python's requests always). It tunnels to Steam's names only: list any other",
    "# https host your bot calls in NO_PROXY.",
    `export HTTPS_PROXY=${env.env.HTTPS_PROXY}`,
    "export NODE_USE_ENV_PROXY=1",
    "# Way 2, with root: Steam's names in /etc/hosts; calls that take no proxy need this one.",
    `#   ${env.hostsLine}`,
    `#   ${forward}`,
    "",
  ].join("\n");
}

function shellQuoted(text: string): string {
  return /^[\w./:@%+=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
