/**
 * The thread that owns the embedded database (server/db/pglite.ts starts it). PGlite runs PostgreSQL as
 * synchronous WebAssembly: on the main thread one slow statement would stop every request, and a wedged one
 * (issue 11) would stop the process for good. Here only this thread stops; the main thread's watchdog ends it.
 *
 * Plain JavaScript on purpose: a worker is loaded by Node itself, with no TypeScript loader (tsx, vitest).
 *
 * Messages in:  { id, op: "query", sql, params } | { id, op: "exec", sql } | { id, op: "script", sql }
 *               | { id, op: "listen", channel } | { id, op: "unlisten", channel } | { id, op: "dump" } | { id, op: "close" }
 * Messages out: { type: "ready" } | { type: "failed", error } | { id, ok, result | error } | { type: "notify", channel, payload }
 */
import { spawnSync } from "node:child_process";
import { closeSync, fsyncSync, openSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { ltree } from "@electric-sql/pglite/contrib/ltree";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** A PostgreSQL error keeps its fields (code, detail, constraint …) across the thread boundary. */
function plainError(e) {
  const out = { message: e instanceof Error ? e.message : String(e) };
  if (e && typeof e === "object") {
    for (const [k, v] of Object.entries(e)) if (v === null || ["string", "number", "boolean"].includes(typeof v)) out[k] = v;
  }
  return out;
}

/**
 * Durability (README, docs/DECISIONS.md): PGlite's file system layer writes through to the files but never
 * calls fsync, so an acknowledged commit could be lost to a power cut. After each statement that ended a
 * commit (`durable` messages) and moved the WAL, the WAL segments written since the last flush are flushed
 * (the commit record is in them); after a checkpoint, every file changed since the last checkpoint flush
 * (old WAL may be recycled once data pages are written; at the first, every file), pg_control last. All before the answer is sent.
 */
function durableFlusher(dataDir) {
  const walDir = path.join(dataDir, "pg_wal");
  const control = path.join(dataDir, "global", "pg_control");
  const SLACK = 2_000_000_000n; // file times move in coarse ticks: take everything touched shortly before too
  const nowNs = () => BigInt(Date.now()) * 1_000_000n;
  const mtime = (file) => statSync(file, { bigint: true }).mtimeNs;
  const sync = (file) => {
    const fd = openSync(file, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  const changedSince = (dir, since, out) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) changedSince(p, since, out);
      else if (entry.isFile() && mtime(p) >= since) out.push(p);
    }
    return out;
  };
  // one syncfs(2) of the data directory's file system (coreutils `sync -f`) instead of an fsync per file:
  // after initdb that is over a thousand files, each its own journal commit
  const syncFileSystem = () => spawnSync("sync", ["-f", dataDir], { stdio: "ignore" }).status === 0;
  let wal = "";
  let checkpoint = "";
  let walFlushed = 0n;
  let checkpointFlushed = 0n;
  return async (pg) => {
    const { rows } = await pg.query("select pg_current_wal_insert_lsn()::text as w, checkpoint_lsn::text as c from pg_control_checkpoint()");
    const { w, c } = rows[0];
    if (w !== wal) {
      const started = nowNs();
      for (const p of changedSince(walDir, walFlushed - SLACK, [])) sync(p);
      sync(walDir);
      wal = w;
      walFlushed = started;
    }
    if (c !== checkpoint) {
      const started = nowNs();
      if (!syncFileSystem()) for (const p of changedSince(dataDir, checkpointFlushed - SLACK, [])) if (p !== control) sync(p);
      sync(control);
      checkpoint = c;
      checkpointFlushed = started;
    }
  };
}

const { dataDir, load } = workerData;
const listeners = new Map();
let pg;
let flush = async () => {};
try {
  pg = await PGlite.create({ dataDir, loadDataDir: load ? new Blob([load]) : undefined, extensions: { citext, ltree, pgcrypto, pg_trgm } });
  if (dataDir) flush = durableFlusher(dataDir);
  parentPort.postMessage({ type: "ready" });
} catch (e) {
  parentPort.postMessage({ type: "failed", error: plainError(e) });
}

const asText = (v) => v;

async function run(msg) {
  switch (msg.op) {
    case "query": {
      const r = await pg.query(msg.sql, msg.params ?? []);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    }
    case "exec":
      await pg.exec(msg.sql);
      return null;
    case "script": {
      // run_sql: every value as PostgreSQL prints it; PGlite falls back to its own parser for a type missing here
      const parsers = Object.fromEntries([...Object.keys(pg.parsers), ...msg.textTypes].map((k) => [k, asText]));
      const results = await pg.exec(msg.sql, { rowMode: "array", parsers });
      return results.map((r) => ({
        fields: r.fields.map((f) => f.name),
        rows: r.rows.map((row) => row.map((v) => (v === null || v === undefined ? null : String(v)))),
        command: r.command,
      }));
    }
    case "listen":
      if (!listeners.has(msg.channel)) listeners.set(msg.channel, await pg.listen(msg.channel, (payload) => parentPort.postMessage({ type: "notify", channel: msg.channel, payload })));
      return null;
    case "unlisten":
      await listeners.get(msg.channel)?.();
      listeners.delete(msg.channel);
      return null;
    case "dump": {
      const blob = await pg.dumpDataDir("none");
      return new Uint8Array(await blob.arrayBuffer());
    }
    case "close":
      await pg.close();
      return null;
    default:
      throw new Error(`unknown operation ${msg.op}`);
  }
}

parentPort.on("message", async (msg) => {
  try {
    const result = await run(msg);
    if (msg.durable) await flush(pg);
    parentPort.postMessage({ id: msg.id, ok: true, result }, result instanceof Uint8Array ? [result.buffer] : []);
  } catch (e) {
    parentPort.postMessage({ id: msg.id, ok: false, error: plainError(e) });
  }
});
