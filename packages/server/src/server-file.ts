import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * `DATA_DIR/server.json`: where the server of a data directory listens, written once it listens
 * and removed when it stops cleanly, so that `skinmarket admin` run against the same data
 * directory finds it whatever `--port`/`PORT` it was given. A file left by a crash names a pid
 * that is no longer alive, and readers ignore it.
 */
export const SERVER_FILE = "server.json";

export interface ServerFile {
  url: string;
  pid: number;
  started_at: string;
  /** The Steam face's port, when it serves one (`skinmarket steam env` reads it). */
  steam_face_port?: number;
}

export async function writeServerFile(dataDir: string, url: string, steamFacePort?: number): Promise<void> {
  const entry: ServerFile = {
    url,
    pid: process.pid,
    started_at: new Date().toISOString(),
    ...(steamFacePort !== undefined ? { steam_face_port: steamFacePort } : {}),
  };
  // With DATABASE_URL and SECRET_KEY set, nothing else may have created the data dir.
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, SERVER_FILE), `${JSON.stringify(entry, null, 2)}\n`);
}

/** Removes the file if this process wrote it (another server may have taken the data dir since). */
export async function removeServerFile(dataDir: string): Promise<void> {
  const entry = await readServerFile(dataDir);
  if (entry?.pid === process.pid) await rm(join(dataDir, SERVER_FILE), { force: true });
}

/** The running server of a data directory: undefined without a file, or when its pid is gone. */
export async function runningServer(dataDir: string): Promise<ServerFile | undefined> {
  const entry = await readServerFile(dataDir);
  return entry && isAlive(entry.pid) ? entry : undefined;
}

async function readServerFile(dataDir: string): Promise<ServerFile | undefined> {
  let text: string;
  try {
    text = await readFile(join(dataDir, SERVER_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const entry = JSON.parse(text) as Partial<ServerFile>;
    return typeof entry.url === "string" &&
      Number.isInteger(entry.pid) &&
      typeof entry.started_at === "string"
      ? (entry as ServerFile)
      : undefined;
  } catch {
    // A file cut short (a crash while writing) says nothing usable: the next start rewrites it.
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** `DATA_DIR/sandbox-admin-token`: the sandbox admin token a server generated at its first start. */
export const ADMIN_TOKEN_FILE = "sandbox-admin-token";

export function readAdminTokenFile(dataDir: string): Promise<string | undefined> {
  return readOptionalFile(join(dataDir, ADMIN_TOKEN_FILE));
}

/** A small text file's trimmed content; undefined when it is missing or blank. */
export async function readOptionalFile(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, "utf8")).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
