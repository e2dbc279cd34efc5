import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "../../server/db/pglite.ts";

const root = path.resolve(import.meta.dirname, "../..");
const pgliteModule = path.join(root, "server/db/pglite.ts");
// The fsync check reads the system calls through strace (.ci/run installs it). Like the other lanes that need a
// tool from the machine, it is left out locally with a message when strace is missing, and fails under CI.
const strace = spawnSync("strace", ["-V"]).status === 0;
if (!strace && !process.env.CI) console.warn("[tests] embedded fsync check left out: no strace (apt-get install strace).");

describe("embedded durability (README, docs/DECISIONS.md)", () => {
  it.runIf(strace || process.env.CI)("flushes every acknowledged commit to disk (fsync of the WAL) before answering (issue 11)", async () => {
    // strace shows the process's system calls in order: each "ack" written to stdout must follow an fsync of the
    // write-ahead log made after the previous ack, or a power cut could take back a commit already acknowledged.
    expect(spawnSync("strace", ["-V"]).status, "strace is needed for this test (apt-get install strace)").toBe(0);
    const durableDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-fsync-"));
    const trace = path.join(durableDir, "trace.txt");
    const script = `
      import { openPglite } from ${JSON.stringify(pgliteModule)};
      const db = await openPglite({ dataDir: ${JSON.stringify(path.join(durableDir, "pgdata"))} });
      await db.exec("create table receipts_probe (id int primary key)");
      process.stdout.write("ack create\\n");
      for (let i = 1; i <= 3; i++) {
        await db.transaction(async (tx) => { await tx.query("insert into receipts_probe values ($1)", [i]); });
        process.stdout.write("ack tx " + i + "\\n");
        await db.query("insert into receipts_probe values ($1)", [100 + i]);
        process.stdout.write("ack autocommit " + i + "\\n");
      }
      await db.close();`;
    const child = spawn("strace", ["-f", "-y", "-qq", "-e", "trace=fsync,fdatasync,write", "-e", "signal=none", "-o", trace, process.execPath, "--import", "tsx", "--input-type=module", "-e", script], { cwd: root, stdio: "ignore" });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    const lines = readFileSync(trace, "utf8").split("\n");
    rmSync(durableDir, { recursive: true, force: true });
    const acks: string[] = [];
    let flushed = false;
    // With -f, a call interrupted by another thread's is split in two lines: "PID fsync(FD<path> <unfinished ...>"
    // and later "PID <... fsync resumed>) = 0". Both forms count.
    const walSyncStarted = new Set<string>();
    for (const line of lines) {
      const pid = /^(\d+)\s/.exec(line)?.[1] ?? "";
      const walSync = /\bf(data)?sync\(\d+<[^>]*\/pg_wal\/[0-9A-F]{24}>/.test(line);
      if (walSync && /\)\s+= 0/.test(line)) flushed = true;
      else if (walSync && line.includes("<unfinished ...>")) walSyncStarted.add(pid);
      else if (/<\.\.\. f(data)?sync resumed>.*\)\s+= 0/.test(line) && walSyncStarted.delete(pid)) flushed = true;
      const ack = /write\(1<[^>]*>, "(ack [^"\\]*)/.exec(line);
      if (ack) {
        acks.push(`${ack[1]}: ${flushed ? "flushed" : "NOT flushed"}`);
        flushed = false;
      }
    }
    const evidence = lines.filter((l) => /pg_wal|resumed|"ack /.test(l)).slice(0, 120).join("\n");
    expect(acks, `the traced flushes and acks:\n${evidence}`).toEqual(["ack create", ...[1, 2, 3].flatMap((i) => [`ack tx ${i}`, `ack autocommit ${i}`])].map((a) => `${a}: flushed`));
  }, 120_000);

  const dir = mkdtempSync(path.join(os.tmpdir(), "backoffice-durability-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps a committed transaction when the process is killed right after the commit", async () => {
    const script = `
      import { openPglite } from ${JSON.stringify(pgliteModule)};
      const db = await openPglite({ dataDir: ${JSON.stringify(dir)} });
      await db.exec("create table receipts_probe (id int primary key)");
      await db.transaction(async (tx) => { await tx.query("insert into receipts_probe values (42)"); });
      process.kill(process.pid, "SIGKILL");`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, stdio: "ignore" });
    const signal = await new Promise((resolve) => child.once("exit", (_code, sig) => resolve(sig)));
    expect(signal).toBe("SIGKILL");

    const db = await openPglite({ dataDir: dir });
    const { rows } = await db.query<{ id: number }>("select id from receipts_probe");
    await db.close();
    expect(rows).toEqual([{ id: 42 }]);
  }, 120_000); // a fresh data directory is an initdb: slow on a busy machine
});
