/**
 * Reading a credit note with its class and fee rows, the snapshot its log rows keep (spec part 2 §3:
 * studentId, reason, remarks, type, creditNoteStatus, creditNoteFee, creditNoteClass) and the log writer.
 */
import type { Queryable } from "../db/index.ts";
import { CREDIT_NOTE_MESSAGES, type CreditNoteRight, type CreditNoteStatus, type CreditNoteType } from "../../src/domain/finance/creditNote.ts";
import { FinanceError, sameInstant } from "./transaction.ts";

export interface CnRow {
  id: string;
  name: string | null;
  type: CreditNoteType;
  creditNoteStatus: CreditNoteStatus;
  reason: string | null;
  remarks: string | null;
  summary: { subTotal: string; gst: string; total: string } | null;
  gst: string;
  usedAmount: string;
  approverId: string | null;
  approvedAt: string | null;
  studentId: string;
  companyId: string;
  suspensionId: string | null;
  paymentAdviceId: string | null;
  creditNoteClassId: string | null;
  creditNoteFeeId: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
  cls: { classId: string | null; termId: string | null; termName: string | null; startDate: string | null; endDate: string | null; lessonIds: string[] } | null;
  fee: { numberOfLesson: number | null; overpaidAmount: string | null; unitPriceOfClass: string | null; receiptId: string | null } | null;
}

const ts = (col: string) => `to_json(cn."${col}") #>> '{}' as "${col}"`;

export async function readCreditNote(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<CnRow> {
  const { rows } = await db.query<CnRow>(
    `select cn.id, cn.name, cn.type, cn."creditNoteStatus", cn.reason, cn.remarks, cn.summary, cn.gst::text as gst, cn."usedAmount"::text as "usedAmount",
       cn."approverId", ${ts("approvedAt")}, cn."studentId", cn."companyId", cn."suspensionId", cn."paymentAdviceId", cn."creditNoteClassId", cn."creditNoteFeeId",
       cn.status, ${ts("createdAt")}, ${ts("updatedAt")},
       (select json_build_object('classId', c."classId", 'termId', c."termId", 'termName', c."termName", 'startDate', c."startDate", 'endDate', c."endDate", 'lessonIds', c."lessonIds")
          from credit_note_classes c where c.id = cn."creditNoteClassId") as cls,
       (select json_build_object('numberOfLesson', f."numberOfLesson", 'overpaidAmount', f."overpaidAmount"::text, 'unitPriceOfClass', f."unitPriceOfClass"::text, 'receiptId', f."receiptId")
          from credit_note_fees f where f.id = cn."creditNoteFeeId") as fee
     from credit_notes cn where cn.id = $1${options.forUpdate ? " for update of cn" : ""}`,
    [id],
  );
  const row = rows[0];
  if (!row || row.status === "deleted") throw new FinanceError(404, CREDIT_NOTE_MESSAGES.notFound);
  return row;
}

export async function assertCreditNoteFresh(db: Queryable, row: CnRow, updatedAt: string): Promise<void> {
  if (!(await sameInstant(db, row.updatedAt, updatedAt))) throw new FinanceError(409, CREDIT_NOTE_MESSAGES.stale);
}

export function creditNoteSnapshot(row: CnRow) {
  return {
    name: row.name,
    studentId: row.studentId,
    reason: row.reason,
    remarks: row.remarks,
    type: row.type,
    creditNoteStatus: row.creditNoteStatus,
    creditNoteFee: row.fee,
    creditNoteClass: row.cls,
    summary: row.summary,
  };
}

export async function writeCreditNoteLog(db: Queryable, id: string, type: "create" | "update" | "change_status" | "duplicate", before: unknown, after: unknown, by: string | null): Promise<void> {
  await db.query(`insert into credit_note_logs ("creditNoteId", type, "valueBefore", "valueAfter", "createdBy") values ($1, $2, $3::jsonb, $4::jsonb, $5)`, [
    id,
    type,
    before === null ? null : JSON.stringify(before),
    after === null ? null : JSON.stringify(after),
    by,
  ]);
}

/** Asks every right once, before any transaction (the policy may read the database; see paymentAdvices.ts). */
export async function grantedRights<R extends string>(all: readonly R[], can: (right: R) => Promise<boolean>): Promise<ReadonlySet<R>> {
  const answers = await Promise.all(all.map(async (r) => [r, await can(r)] as const));
  return new Set(answers.filter(([, ok]) => ok).map(([r]) => r));
}

export type CreditNoteRights = ReadonlySet<CreditNoteRight>;

/** The access-policy objects of the workflow's rights (POST, like every action right). */
export const creditNoteRightObject = (right: CreditNoteRight) => `api:/actions/credit-note/${right}`;
export const suspensionCreateObject = "api:/actions/suspension/create";
