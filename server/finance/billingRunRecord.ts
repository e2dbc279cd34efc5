/**
 * The stored billing runs (issue 39 §1): who ran what, when, with its counts, total and each student's outcome, so
 * the summary outlives the browser. Each issue call adds its batch after its PAs are issued (the PAs are the money;
 * this row only tells the story, outside the PAs' transactions).
 */
import type { Db, Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { BILLING_RUN_MESSAGES as M, type BillingIssueReply, type BillingRunOutcome, type BillingRunRecord, type BillingRunSelection } from "../../src/domain/finance/billingRun.ts";
import { issueBillingRun } from "./billingRun.ts";
import type { ActionCheck } from "./paymentAdvices.ts";
import { FinanceError } from "./transaction.ts";

/** The selection's fields in a fixed order (jsonb keeps its keys in its own order). */
const selectionKey = (s: BillingRunSelection) => JSON.stringify([s.companyId, s.branchId, s.year, s.termNames, s.classIds, s.programIds, s.dueDate]);
const sameSelection = (a: BillingRunSelection, b: BillingRunSelection) => selectionKey(a) === selectionKey(b);

/** Adds outcomes to the run `runId` (made for the same selection), or to a new run; returns the run's id. */
export async function recordBillingRun(db: Queryable, runId: string | undefined, sel: BillingRunSelection, outcomes: readonly BillingRunOutcome[], by: string | null): Promise<string> {
  const issued = outcomes.filter((o) => o.status === "issued");
  const total = centsToNumeric(issued.reduce((s, o) => s + (numericToCents(o.status === "issued" ? o.total : "0") ?? 0), 0));
  const counts = [issued.length, outcomes.length - issued.length, total, JSON.stringify(outcomes), by];
  if (!runId) {
    const { rows } = await db.query<{ id: string }>(
      `insert into billing_runs ("companyId", "branchId", selection, "issuedCount", "skippedCount", total, results, "createdBy", "updatedBy")
       values ($6, $7, $8::jsonb, $1, $2, $3, $4::jsonb, $5, $5) returning id`,
      [...counts, sel.companyId, sel.branchId, JSON.stringify(sel)],
    );
    return rows[0]!.id;
  }
  await checkRunSelection(db, runId, sel);
  await db.query(
    `update billing_runs set "issuedCount" = "issuedCount" + $1, "skippedCount" = "skippedCount" + $2, total = total + $3, results = results || $4::jsonb, "updatedBy" = $5 where id = $6`,
    [...counts, runId],
  );
  return runId;
}

/**
 * One issue call of the screen: the batch issued (issueBillingRun), then its outcomes and the students left out
 * (unticked, or skipped by the preview, with their reason) added to the stored run. A run id of another selection is
 * refused before anything is issued.
 */
export async function issueAndRecord(
  db: Db,
  sel: BillingRunSelection,
  batch: { studentIds: readonly string[]; runId?: string; leftOut: ReadonlyArray<{ studentId: string; reason: string }> },
  by: string | null,
  can: ActionCheck,
): Promise<BillingIssueReply> {
  if (batch.runId) await checkRunSelection(db, batch.runId, sel);
  const results = await issueBillingRun(db, sel, batch.studentIds, by, can);
  const { rows } = await db.query<{ id: string; name: string }>(
    `select id, coalesce(nullif("fullName", ''), trim(coalesce("firstName", '') || ' ' || coalesce("lastName", ''))) as name from users where id = any($1::uuid[])`,
    [[...results.map((r) => r.studentId), ...batch.leftOut.map((l) => l.studentId)]],
  );
  const nameOf = new Map(rows.map((r) => [r.id, r.name]));
  const outcomes: BillingRunOutcome[] = [
    ...results.map((r) => ({ ...r, studentName: nameOf.get(r.studentId) ?? "" })),
    ...batch.leftOut.map((l) => ({ studentId: l.studentId, status: "skipped" as const, reason: l.reason, studentName: nameOf.get(l.studentId) ?? "" })),
  ];
  return { runId: await recordBillingRun(db, batch.runId, sel, outcomes, by), results };
}

/** A run's selection, as the issue call checks it before issuing anything (a run id of another selection is refused first). */
export async function checkRunSelection(db: Queryable, runId: string, sel: BillingRunSelection): Promise<void> {
  const { rows } = await db.query<{ selection: BillingRunSelection }>(`select selection from billing_runs where id = $1 and status = 'active'`, [runId]);
  if (!rows.length) throw new FinanceError(404, M.runUnknown);
  if (!sameSelection(rows[0]!.selection, sel)) throw new FinanceError(400, M.runOtherSelection);
}

const RUN_COLUMNS = `r.id, r."createdAt",
  coalesce(nullif(u."fullName", ''), u.username) as "createdByName", b.name as "branchName", r.selection, r."issuedCount", r."skippedCount", r.total::text as total`;
const RUN_FROM = `billing_runs r left join users u on u.id = r."createdBy" left join branches b on b.id = r."branchId"`;

/** The company's latest runs, newest first, without their outcomes. */
export async function listBillingRuns(db: Queryable, companyId: string): Promise<BillingRunRecord[]> {
  const { rows } = await db.query<BillingRunRecord>(`select ${RUN_COLUMNS} from ${RUN_FROM} where r."companyId" = $1 and r.status = 'active' order by r."createdAt" desc, r.id limit 20`, [companyId]);
  return rows.map((r) => ({ ...r, total: centsToNumeric(numericToCents(r.total) ?? 0) }));
}

/** One run with each student's outcome. */
export async function billingRun(db: Queryable, id: string): Promise<BillingRunRecord> {
  const { rows } = await db.query<BillingRunRecord>(`select ${RUN_COLUMNS}, r.results from ${RUN_FROM} where r.id = $1 and r.status = 'active'`, [id]);
  if (!rows.length) throw new FinanceError(404, M.runUnknown);
  return { ...rows[0]!, total: centsToNumeric(numericToCents(rows[0]!.total) ?? 0) };
}
