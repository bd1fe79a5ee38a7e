import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** Every heading anchor of a markdown text; a repeated heading gets `-1`, `-2`, as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    const heading = inFence ? undefined : /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = headingSlug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const SKIPPED = new Set(["node_modules", ".git", "data", "dist", "coverage", "bench-results"]);
const TEXT = /\.(ts|tsx|mts|mjs|js|md|sql|ya?ml|json|sh|css|html)$/;

/** The repository's text files (sources, tests, scripts, documents), as paths from `root`. */
export function repositoryTextFiles(root: string, folder = root): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...repositoryTextFiles(root, path));
    else if (TEXT.test(entry.name) && entry.name !== "package-lock.json") files.push(relative(root, path));
  }
  return files.sort();
}

export function readText(root: string, file: string): string {
  return readFileSync(join(root, file), "utf8");
}
