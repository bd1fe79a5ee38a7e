import type { FastifyInstance } from "fastify";
import secureJson from "secure-json-parse";
import { HttpFailure } from "../failure.ts";

/**
 * Bodies are JSON and only JSON (the reference: `Content-Type: application/json`). The parser
 * refuses `__proto__` and `constructor.prototype` keys by name, so a poisoned body is a clear
 * `Invalid Argument` rather than a merged prototype; an empty body counts as no body.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
    const source = String(text);
    if (source.trim() === "") return done(null, undefined);
    try {
      done(null, secureJson.parse(source, undefined, { protoAction: "error", constructorAction: "error" }));
    } catch (error) {
      const poisoned =
        error instanceof SyntaxError && /prototype property|constructor property/.test(error.message);
      const message = poisoned
        ? "body: __proto__ and constructor.prototype are not allowed"
        : "body: not valid JSON";
      done(new HttpFailure({ code: "Invalid Argument", message }), undefined);
    }
  });
}
