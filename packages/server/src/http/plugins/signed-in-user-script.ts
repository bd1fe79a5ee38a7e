import type { SessionUser } from "../../domain/sessions/resolve-session.ts";

/**
 * The signed-in user written into a page, as the real website's pages embed it and tools read it
 * (docs/design/website.md#the-pages-and-how-they-are-served): a data block (`type="application/json"`, never run) holding
 * `{"user": {"nickname": ..., "id": ...}}` laid out as Python's `json.dumps` lays it out (`": "`
 * and `", "`), since tools test for the text `"user": {"` and `"nickname": "`.
 * Every `<`, `>`, `&`, U+2028 and U+2029 is escaped as `\uXXXX` (valid JSON, the same value), so
 * no nickname can end the script element (`</script>`), open a comment or a tag, or break a
 * reader that takes the block for JavaScript.
 */
export function signedInUserScript(user: Pick<SessionUser, "userId" | "nickname">): string {
  const data = { user: { nickname: user.nickname, id: String(user.userId) } };
  return `<script type="application/json" id="signed-in-user">${escapeForScript(pythonStyleJson(data))}</script>`;
}

/** JSON with `": "` after keys and `", "` between members, as Python's json.dumps writes it. */
function pythonStyleJson(value: unknown): string {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const members = Object.entries(value).map(
      ([key, member]) => `${JSON.stringify(key)}: ${pythonStyleJson(member)}`,
    );
    return `{${members.join(", ")}}`;
  }
  return JSON.stringify(value);
}

const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;

function escapeForScript(json: string): string {
  return json.replace(
    SCRIPT_UNSAFE,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
