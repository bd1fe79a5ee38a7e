/**
 * The README's shell blocks as commands to run and the output each should print.
 *
 * - A fenced `sh` block is run unless the line before it is `<!-- readme-test: skip ... -->`;
 *   `<!-- readme-test: serve -->` marks the block that starts the server.
 * - A command is a line that is not a comment, with its `\`-continued lines.
 * - `#   ` lines right below a command show (part of) what it prints: whitespace is ignored, `...`
 *   stands for anything, and a remark after two spaces in parentheses is not output.
 */
export type ReadmeCommand = { text: string; expected?: RegExp };
export type ReadmeBlock = { mode: "run" | "serve" | "skip"; commands: ReadmeCommand[]; line: number };

const MARKER = /^<!--\s*readme-test:\s*(skip|serve)\b.*-->$/;

export function parseReadme(markdown: string): ReadmeBlock[] {
  const lines = markdown.split("\n");
  const blocks: ReadmeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (lines[index]!.trim() !== "```sh") continue;
    const body: string[] = [];
    const line = index + 1;
    for (index++; index < lines.length && lines[index]!.trim() !== "```"; index++) body.push(lines[index]!);
    blocks.push({ mode: modeBefore(lines, line - 1), commands: commandsOf(body), line });
  }
  return blocks;
}

function modeBefore(lines: string[], fence: number): ReadmeBlock["mode"] {
  for (let index = fence - 1; index >= 0; index--) {
    const text = lines[index]!.trim();
    if (text === "") continue;
    const marker = MARKER.exec(text);
    return marker ? (marker[1] as "skip" | "serve") : "run";
  }
  return "run";
}

function commandsOf(body: string[]): ReadmeCommand[] {
  const commands: Array<{ text: string; shown: string[] }> = [];
  for (let index = 0; index < body.length; index++) {
    const line = body[index]!;
    if (line.trim() === "") continue;
    if (/^#\s{3}/.test(line) && commands.length > 0) {
      commands.at(-1)!.shown.push(line.replace(/^#\s{3}/, ""));
      continue;
    }
    if (line.trimStart().startsWith("#")) continue;
    let text = line;
    while (text.endsWith("\\") && index + 1 < body.length) text = `${text}\n${body[++index]!}`;
    commands.push({ text, shown: [] });
  }
  return commands.map(({ text, shown }) =>
    shown.length === 0 ? { text } : { text, expected: expectedOutput(shown) },
  );
}

/** `#   ` lines as a pattern over the output with its whitespace removed. */
export function expectedOutput(shown: string[]): RegExp {
  const text = shown
    .map((line) => line.replace(/\s{2,}\(.*\)\s*$/, ""))
    .join("")
    .replace(/\s+/g, "");
  const pattern = text
    .split("...")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*?");
  return new RegExp(pattern);
}
