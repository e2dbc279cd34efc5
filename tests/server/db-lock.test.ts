import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "../../server/db/lock.ts";
import { openDatabase } from "../../server/db/index.ts";

const lockModule = path.resolve(import.meta.dirname, "../../server/db/lock.ts");

/** A second process that locks dir with the real lockDataDir, then waits until killed. */
function lockInChild(dir: string): Promise<ChildProcess> {
  const script = `import { lockDataDir } from ${JSON.stringify(lockModule)}; lockDataDir(${JSON.stringify(dir)}); console.log("locked"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"], cwd: path.resolve(import.meta.dirname, "../..") });
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    child.stdout!.on("data", (d) => {
      if (String(d).includes("locked")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
}

describe("data directory lock", () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const tmp = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), "bo-lock-"));
    dirs.push(d);
    return d;
  };
  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill("SIGKILL");
        await exited(c);
      }
    }
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("refuses a directory held by another live process, and takes over once it is gone", async () => {
    const dir = tmp();
    const child = await lockInChild(dir);
    children.push(child);
    expect(Number(readFileSync(path.join(dir, "server.lock"), "utf8"))).toBe(child.pid);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirLockedError);

    // the owner dies without cleaning up: its stale lock is taken over
    child.kill("SIGKILL");
    await exited(child);
    expect(existsSync(path.join(dir, "server.lock"))).toBe(true);
    const unlock = lockDataDir(dir);
    expect(Number(readFileSync(path.join(dir, "server.lock"), "utf8"))).toBe(process.pid);
    unlock();
    expect(existsSync(path.join(dir, "server.lock"))).toBe(false);
  }, 60_000);

  it("takes over a lock file left by a pid that no longer exists", () => {
    const dir = tmp();
    writeFileSync(path.join(dir, "server.lock"), "2147483646");
    const unlock = lockDataDir(dir);
    expect(readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(String(process.pid));
    unlock();
  });

  it("releases the lock when the embedded database closes", async () => {
    const dir = tmp();
    const db = await openDatabase({ dataDir: dir });
    expect(existsSync(path.join(dir, "server.lock"))).toBe(true);
    await db.close();
    expect(existsSync(path.join(dir, "server.lock"))).toBe(false);
  }, 60_000);
});
