import {
  generateWebhookSecret,
  MarketApiError,
  MarketClient,
  MarketTransportError,
  streamUrl,
} from "@skinmarket/client";
import { unknownEventTypePattern } from "@skinmarket/contract";
import { Command, Option } from "commander";
import { UsageError } from "./command-helpers.ts";
import { describeEvent, forwardEvent } from "./event-output.ts";
import { resolveConnection, ServerUnreachableError } from "./server-connection.ts";

interface ListenOptions {
  token?: string;
  channels: string;
  types?: string;
  after?: string;
  forwardTo?: string;
  forwardSecret?: string;
  poll?: boolean;
  json?: boolean;
}

const EXAMPLES = `
Examples:
  $ skinmarket listen --token smk_...                      every account event, as it happens
  $ skinmarket listen --types 'trade.*,balance.changed' --json
  $ skinmarket listen --channels market,prices:9061 --after 1200
  $ skinmarket listen --forward-to http://localhost:3000/webhook
      POSTs each event to your receiver, signed as webhooks are (Skinmarket-Signature), and prints
      the status it answered; the secret is printed at start (or give --forward-secret whsec_...)
  $ skinmarket listen --poll            polls GET /api/market/developer/events every second instead

The token comes from --token or SKINMARKET_TOKEN; the server as for admin (--url, SKINMARKET_URL,
the running server of --data-dir). Ctrl-C stops (exit 0). Exit 1: the server cannot be reached or
refuses the token; exit 2: bad usage.`;

/**
 * `skinmarket listen`: the account's (or the market's) events on the terminal as they happen, over
 * the stream or by polling, optionally forwarded to a local URL as signed webhook deliveries, so
 * that a receiver can be developed before it is reachable from the internet.
 */
export function listenCommand(): Command {
  return new Command("listen")
    .description("print events as they happen (the stream), or forward them signed to a local URL")
    .addOption(
      new Option(
        "--url <url>",
        "base URL of the server (default: the running server of the data dir, else http://HOST:PORT, else http://127.0.0.1:8080)",
      ).env("SKINMARKET_URL"),
    )
    .addOption(
      new Option("--data-dir <dir>", "the server's data dir: where it listens")
        .env("DATA_DIR")
        .default("./data"),
    )
    .addOption(new Option("--token <token>", "API token (developer or enterprise)").env("SKINMARKET_TOKEN"))
    .option(
      "--channels <list>",
      "comma-separated: account, market, prices, prices:<goods_id>, book:<goods_id>",
      "account",
    )
    .option("--types <list>", "comma-separated event types; `trade.*` names a family")
    .option(
      "--after <id>",
      "start after this event id (what came since is replayed first); default: from now",
    )
    .option("--forward-to <url>", "POST each event to this URL, signed as a webhook delivery")
    .option(
      "--forward-secret <secret>",
      "the whsec_... secret to sign forwarded events with (default: a new one)",
    )
    .option("--poll", "poll the events operation every second instead of the stream (account events only)")
    .option("--json", "one JSON event per line")
    .addHelpText("after", EXAMPLES)
    .action(async function (this: Command) {
      await listen(this);
    });
}

async function listen(command: Command): Promise<void> {
  const options = command.opts<ListenOptions>();
  const request = checkedRequest(options);
  const { baseUrl, urlSource } = await resolveConnection(command);
  const client = new MarketClient({ baseUrl, token: request.token });
  const stop = new AbortController();
  const interrupt = () => {
    // A second Ctrl-C does not wait for the connection to close.
    if (stop.signal.aborted) process.exit(1);
    stop.abort();
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  const unreachable = (error: unknown) => {
    if (error instanceof MarketTransportError) throw new ServerUnreachableError(baseUrl, urlSource, error);
    throw error;
  };
  // One request first: a wrong URL or token is reported at once, whichever way events come.
  await client.listEvents({ limit: 1 }).catch(unreachable);
  const secret = options.forwardTo ? (options.forwardSecret ?? generateWebhookSecret()) : undefined;
  if (options.forwardTo) {
    progress(`forwarding each event to ${options.forwardTo}, signed with ${secret}`);
  }
  const what = `${request.channels.join(", ")} events${request.types ? ` of types ${request.types.join(",")}` : ""}`;
  const events = options.poll
    ? client.pollEvents({ ...request.filter, signal: stop.signal })
    : client.events({
        ...request.filter,
        channels: request.channels,
        signal: stop.signal,
        onConnected: ({ url, after }) => progress(`listening on ${url} for ${what} (after event ${after})`),
        onReconnecting: ({ reason, delayMs }) =>
          progress(`connection lost (${reason}); reconnecting in ${(delayMs / 1000).toFixed(1)} s`),
      });
  if (options.poll) {
    progress(`polling ${new URL("/api/market/developer/events", baseUrl)} every second for ${what}`);
  }
  try {
    for await (const event of events) {
      process.stdout.write(`${options.json ? JSON.stringify(event) : describeEvent(event)}\n`);
      if (options.forwardTo && secret) progress(await forwardEvent(event, options.forwardTo, secret));
    }
  } catch (error) {
    if (error instanceof MarketApiError && error.status === 404 && !options.poll) {
      throw new MarketApiError({
        ...error,
        msg: `${streamUrl(baseUrl)} is not served here: this server has no event stream; try --poll`,
      });
    }
    unreachable(error);
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
  progress("stopped");
}

function progress(line: string): void {
  process.stderr.write(`skinmarket: ${line}\n`);
}

function checkedRequest(options: ListenOptions) {
  const token = options.token?.trim();
  if (!token) throw new UsageError("no API token: pass --token or set SKINMARKET_TOKEN");
  const channels = list(options.channels);
  const badChannel = channels.find(
    (channel) => !/^(account|market|prices|(prices|book):\d{1,12})$/.test(channel),
  );
  if (channels.length === 0 || badChannel !== undefined) {
    throw new UsageError(
      `--channels: ${JSON.stringify(badChannel ?? "")} is not account, market, prices, prices:<goods_id> or book:<goods_id>`,
    );
  }
  if (options.poll && channels.some((channel) => channel !== "account")) {
    throw new UsageError(
      "--poll reads account events only: leave out --channels, or the stream's channels need no --poll",
    );
  }
  const types = options.types === undefined ? undefined : list(options.types);
  const unknown = types ? unknownEventTypePattern(types) : undefined;
  if (types?.length === 0 || unknown !== undefined) {
    throw new UsageError(
      `--types: ${JSON.stringify(unknown ?? "")} is not an event type (e.g. trade.*, balance.changed)`,
    );
  }
  if (options.after !== undefined && !/^\d{1,18}$/.test(options.after)) {
    throw new UsageError(`--after: ${JSON.stringify(options.after)} is not an event id (a whole number)`);
  }
  if (options.forwardTo !== undefined && !/^https?:\/\/[^/]/.test(options.forwardTo)) {
    throw new UsageError(
      `--forward-to: ${JSON.stringify(options.forwardTo)} is not an http:// or https:// URL`,
    );
  }
  if (options.forwardSecret !== undefined && !options.forwardSecret.startsWith("whsec_")) {
    throw new UsageError("--forward-secret: a webhook secret starts with whsec_");
  }
  const filter: { types?: string[]; after?: string } = {
    ...(types ? { types } : {}),
    ...(options.after !== undefined ? { after: options.after } : {}),
  };
  return { token, channels, types, filter };
}

function list(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
