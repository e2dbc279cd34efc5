import { mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync, closeSync } from "node:fs";
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

/** /proc/<pid>/stat: the command name and the start time (ms since the epoch); undefined without /proc. */
function processInfo(pid: number | "self"): { comm: string; startedMs: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const startTicks = Number(stat.slice(close + 2).split(" ")[19]); // field 22: starttime, in clock ticks since boot
    const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    return { comm, startedMs: bootSeconds * 1000 + startTicks * 10 }; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/**
 * A live pid in the lock file is the lock's owner only if that process started before the lock was written
 * and runs the same program as we do (node); otherwise the pid was reused by another process after the
 * owner died (issue 11). btime has whole seconds: two seconds of slack.
 */
function ownsLock(pid: number, lockWrittenMs: number): boolean {
  const owner = processInfo(pid);
  const self = processInfo("self");
  if (!owner || !self) return true; // no /proc: a live pid is taken at its word
  return owner.startedMs <= lockWrittenMs + 2000 && owner.comm === self.comm;
}

/**
 * PGlite is a single-process database: two processes writing one data directory would corrupt it.
 * An exclusive lock file holds the owner's pid; a stale lock (owner gone, or its pid now another program's)
 * is taken over.
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
      if (owner && owner !== process.pid && alive(owner) && ownsLock(owner, statSync(file).mtimeMs)) {
        throw new DataDirLockedError(`The data directory ${dir} is in use by another process (pid ${owner}). Stop it first, or set DATA_DIR to another directory.`);
      }
      unlinkSync(file);
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}.`);
}
