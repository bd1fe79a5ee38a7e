import { unknownEventTypePattern, type MarketplaceEvent } from "@skinmarket/contract";
import { pause } from "./event-stream.ts";

export interface PollEventsOptions {
  /** Exact types, families (`trade.*`) or `*`; none: every account event. */
  types?: readonly string[];
  /** Start after this event id; `"0"` reads from the oldest kept. None: from now on. */
  after?: string;
  /** The wait between polls that found nothing new (default 1000 ms). */
  intervalMs?: number;
  /** Aborting ends the iteration (normally, without an error). */
  signal?: AbortSignal;
}

type ListEvents = (query: {
  after?: string;
  types?: readonly string[];
  limit?: number;
}) => Promise<{ items: MarketplaceEvent[]; has_more: boolean }>;

const PAGE = 1000;

/**
 * The caller's account events through the polling operation, oldest first: it reads on while
 * `has_more`, then waits `intervalMs` before asking again. Without `after` it first skips to the
 * newest event, so that it starts from now as the stream does. A failed poll (after the
 * transport's own retries) ends the iteration with its error.
 */
export async function* pollEventsWith(
  listEvents: ListEvents,
  options: PollEventsOptions = {},
): AsyncGenerator<MarketplaceEvent> {
  const types = options.types?.length ? [...options.types] : undefined;
  const unknown = types ? unknownEventTypePattern(types) : undefined;
  if (unknown !== undefined) throw new TypeError(`types: ${JSON.stringify(unknown)} is not an event type`);
  if (options.after !== undefined && !/^\d{1,18}$/.test(options.after)) {
    throw new TypeError(`after: ${JSON.stringify(options.after)} is not an event id (a decimal string)`);
  }
  const { signal } = options;
  let cursor = options.after ?? (await newestId(listEvents, types));
  while (!signal?.aborted) {
    const page = await listEvents({ after: cursor, ...(types ? { types } : {}), limit: PAGE });
    for (const event of page.items) {
      if (signal?.aborted) return;
      cursor = event.id;
      yield event;
    }
    if (!page.has_more) await pause(options.intervalMs ?? 1000, signal);
  }
}

async function newestId(listEvents: ListEvents, types: string[] | undefined): Promise<string> {
  let cursor = "0";
  for (;;) {
    const page = await listEvents({ after: cursor, ...(types ? { types } : {}), limit: PAGE });
    cursor = page.items.at(-1)?.id ?? cursor;
    if (!page.has_more) return cursor;
  }
}
