import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Steam's calls send their fields as `multipart/form-data` (steam-session, steamcommunity) or
 * `application/x-www-form-urlencoded` (steampy, steam-tradeoffer-manager), or in the query. Both
 * bodies are read by the web platform's own form parser (`Response.formData()`), into one flat
 * record of strings; a file part is refused.
 */
const FORM_LIMIT_BYTES = 1024 * 1024;

export function acceptSteamForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    ["multipart/form-data", "application/x-www-form-urlencoded"],
    { parseAs: "buffer", bodyLimit: FORM_LIMIT_BYTES },
    async (request: FastifyRequest, body: Buffer) => {
      const form = await new Response(new Uint8Array(body), {
        headers: { "content-type": request.headers["content-type"] ?? "" },
      })
        .formData()
        .catch(() => {
          throw Object.assign(new Error("the form could not be read"), { statusCode: 400 });
        });
      const fields: Record<string, string> = {};
      for (const [name, value] of form) {
        if (typeof value !== "string")
          throw Object.assign(new Error(`form field ${name}: files are not accepted`), { statusCode: 400 });
        fields[name] = value;
      }
      return fields;
    },
  );
}

/** The request's fields: the query's, then the body's (a form, or a JSON object) over them. */
export function fieldsOf(request: FastifyRequest): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const source of [request.query, request.body]) {
    if (source === null || typeof source !== "object") continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>))
      if (typeof value === "string") fields[name] = value;
      else if (typeof value === "number" || typeof value === "boolean") fields[name] = String(value);
  }
  return fields;
}
