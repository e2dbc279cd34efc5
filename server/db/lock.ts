import { mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync } from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite is a single-process database: two processes writing one data directory would corrupt it.
 * An exclusive lock file holds the owner's pid; a stale lock (owner gone) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "server.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = Number(readFileSync(file, "utf8").trim());
      if (owner && owner !== process.pid && alive(owner)) {
        throw new DataDirLockedError(`The data directory ${dir} is in use by another process (pid ${owner}). Stop it first, or set DATA_DIR to another directory.`);
      }
      unlinkSync(file);
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}.`);
}
