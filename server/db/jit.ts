import type { Db, Queryable } from "./types.ts";

/**
 * Turns JIT off for the rest of the transaction. Statements over the revenue model's per-PA JSON lines are costed far
 * above what they do (each PA's lines estimated at 100 rows), so PostgreSQL JIT-compiles them: 13.7 s of a 16 s read
 * of 1,000 students on the 100k database; 14.5–18.9 s of compiling for the revenue report over a year at scale 20000;
 * ~15 s of the demo's whole reconciliation; ~0.1 s of a finance operation's recognition.
 */
export async function withoutJit(tx: Queryable): Promise<void> {
  await tx.query("set local jit = off");
}

/** A read without JIT: in a transaction of its own (given the database), else in the caller's. */
export async function readWithoutJit<T>(db: Queryable | Db, read: (tx: Queryable) => Promise<T>): Promise<T> {
  const run = async (tx: Queryable) => {
    await withoutJit(tx);
    return read(tx);
  };
  return "transaction" in db ? db.transaction(run) : run(db);
}
