import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "../../server/db/pglite.ts";

const root = path.resolve(import.meta.dirname, "../..");
const pgliteModule = path.join(root, "server/db/pglite.ts");

describe("embedded durability (README, docs/DECISIONS.md)", () => {
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
  });
});
