/** The limits and timings of the event streams (docs/design/event-stream.md#heartbeats), set at start-up. */
export interface StreamSettings {
  /** Heartbeats (and WebSocket pings) this often; a client silent for two is dropped. */
  heartbeatMs: number;
  /** Bytes waiting to be sent beyond which a connection is dropped as a slow consumer. */
  maxBufferBytes: number;
  /** Streams one API token or website session may have open at once (`STREAM_MAX_PER_CREDENTIAL`). */
  maxPerCredential: number;
  /** Streams one client address may have open at once (`STREAM_MAX_PER_ADDRESS`). */
  maxPerAddress: number;
}

export const DEFAULT_STREAM_SETTINGS: StreamSettings = {
  heartbeatMs: 15_000,
  maxBufferBytes: 1024 * 1024,
  maxPerCredential: 20,
  maxPerAddress: 100,
};
