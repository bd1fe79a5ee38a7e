import type { OperationDefinition, OperationResponse } from "@skinmarket/contract";
import { callOperation, type CallInput, type TransportOptions } from "./transport.ts";

/** What a call to the website sends beside the session: its path parameters, query and body. */
export type WebCallInput<Operation extends OperationDefinition> = Omit<CallInput<Operation>, "headers">;

/**
 * The website's session as a browser keeps it: the `session` cookie and the CSRF token that
 * sign-in sets, sent with every call, the token echoed in `x-csrftoken` as the website wants on
 * writes. `WebClient` names the routes; this holds what each call carries.
 */
export class WebSession {
  readonly #options: TransportOptions;
  #session: string | undefined;
  #csrfToken: string | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  get signedIn(): boolean {
    return this.#session !== undefined;
  }

  /** Calls `operation` with the session's cookies; answers its body. */
  async call<Operation extends OperationDefinition>(
    operation: Operation,
    input: WebCallInput<Operation> = {},
  ): Promise<OperationResponse<Operation>> {
    return (await callOperation(this.#options, operation, { ...input, headers: this.#cookieHeader() })).body;
  }

  /** Calls `operation` without a session (sign-in) and keeps the one its answer sets. */
  async open<Operation extends OperationDefinition>(
    operation: Operation,
    input: WebCallInput<Operation>,
  ): Promise<OperationResponse<Operation>> {
    const answer = await callOperation(this.#options, operation, input);
    this.#session = cookieValue(answer.headers, "session");
    this.#csrfToken = cookieValue(answer.headers, "csrf_token");
    return answer.body;
  }

  /** Calls `operation` with the session (sign-out), then forgets it. */
  async close<Operation extends OperationDefinition>(
    operation: Operation,
  ): Promise<OperationResponse<Operation>> {
    const answer = await callOperation(this.#options, operation, { headers: this.#cookieHeader() });
    this.#session = undefined;
    this.#csrfToken = undefined;
    return answer.body;
  }

  /** The session's cookies, and the CSRF token the website wants echoed on writes. */
  #cookieHeader(): Record<string, string> {
    if (!this.#session) return {};
    if (!this.#csrfToken) return { cookie: `session=${this.#session}` };
    return {
      cookie: `session=${this.#session}; csrf_token=${this.#csrfToken}`,
      "x-csrftoken": this.#csrfToken,
    };
  }
}

function cookieValue(headers: Headers, name: string): string | undefined {
  const cookie = headers.getSetCookie().find((value) => value.startsWith(`${name}=`));
  return cookie?.split(";")[0]?.slice(name.length + 1);
}
