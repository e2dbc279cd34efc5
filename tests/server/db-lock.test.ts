import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from "node:fs";
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

  it("takes over a lock whose pid now belongs to another live program started after the lock was written (issue 11)", async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, "server.lock"), "1"); // placeholder, rewritten with the stranger's pid below
    const stranger = spawn("sleep", ["60"], { stdio: "ignore" });
    children.push(stranger);
    await new Promise((resolve) => stranger.once("spawn", resolve));
    writeFileSync(path.join(dir, "server.lock"), String(stranger.pid));
    // the lock is older than the process that now has its pid, as after a reboot or pid wrap-around
    const past = new Date(Date.now() - 60_000);
    utimesSync(path.join(dir, "server.lock"), past, past);
    const unlock = lockDataDir(dir);
    expect(readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(String(process.pid));
    unlock();
    // a lock written after that program started still names another program (sleep, not node): taken over too
    writeFileSync(path.join(dir, "server.lock"), String(stranger.pid));
    const again = lockDataDir(dir);
    expect(readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(String(process.pid));
    again();
    expect(stranger.exitCode).toBeNull(); // nothing was done to the stranger
  });

  it("npm start reports a data directory in use in one line, without a stack trace", async () => {
    const dir = tmp();
    const child = await lockInChild(dir);
    children.push(child);
    const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, DATA_DIR: dir, PORT: "0", DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    server.stderr!.on("data", (d) => (err += d));
    const code = await new Promise((resolve) => server.once("exit", resolve));
    expect(code).toBe(1);
    expect(err.trim()).toBe(`The data directory ${dir} is in use by another process (pid ${child.pid}). Stop it first, or set DATA_DIR to another directory.`);
  }, 60_000);

  it("releases the lock when the embedded database closes", async () => {
    const dir = tmp();
    const db = await openDatabase({ dataDir: dir });
    expect(existsSync(path.join(dir, "server.lock"))).toBe(true);
    await db.close();
    expect(existsSync(path.join(dir, "server.lock"))).toBe(false);
  }, 60_000);
});
