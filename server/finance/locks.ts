/**
 * Row locks for money that leaves (FINANCE.md §1 and §7): a credit note, refund, deposit deduction or
 * refund, payment by credit note or void of a paid PA reads what it may spend and spends it in one
 * transaction, holding these locks until it ends, so two concurrent requests on PostgreSQL cannot both
 * spend the same money.
 *
 * The order is fixed to rule out deadlocks: first the student (`lockStudentMoney`), then documents by
 * kind in the order of LOCK_ORDER, each kind by id. Every money-out path takes the student's lock
 * first; the document locks after it keep a write from outside the finance service (a remark) from
 * slipping between the read and the write.
 */
import type { Queryable } from "../db/index.ts";

/**
 * Serialises the money operations of one student. `for no key update` on the student's user row: it
 * conflicts with itself (two money operations wait for each other) but not with the key-share locks
 * that inserting a row referencing the student takes, so new documents of the student are not held up.
 */
export async function lockStudentMoney(tx: Queryable, studentId: string): Promise<void> {
  await tx.query(`select id from users where id = $1 for no key update`, [studentId]);
}

/** lockStudentMoney for several students in one statement, in id order (the order every operation locking several takes). */
export async function lockStudentsMoney(tx: Queryable, studentIds: readonly string[]): Promise<void> {
  await tx.query(`select id from users where id = any($1::uuid[]) order by id for no key update`, [[...new Set(studentIds)]]);
}

export const LOCK_ORDER = ["payment_advices", "invoices", "receipts", "credit_notes", "deposits"] as const;
export type LockedTable = (typeof LOCK_ORDER)[number];

/** Locks the rows of one kind by id (after the student's lock, kinds in LOCK_ORDER); returns the ids found. */
export async function lockDocuments(tx: Queryable, table: LockedTable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx.query<{ id: string }>(
    `select id from ${table} where id = any($1::uuid[]) order by id for update`,
    [[...new Set(ids)]],
  );
  return rows.rows.map((r) => r.id);
}
