/**
 * Reading a payment advice as the REST calls reply it, and the snapshot its log rows keep.
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../src/domain/money.ts";
import { displayPaStatus, type StoredPaStatus } from "../../src/domain/finance/paymentAdviceStatus.ts";
import type { ClassInformationStored, PaymentAdviceRecord, PaymentSummaryWire } from "../../src/domain/finance/paymentAdviceApi.ts";
import type { GstPercent } from "../../src/domain/finance/summary.ts";
import { FinanceError } from "./transaction.ts";
import { PA_MESSAGES } from "../../src/domain/finance/paymentAdviceStatus.ts";

export interface PaRow {
  id: string;
  name: string | null;
  paymentStatus: StoredPaStatus;
  studentId: string;
  companyId: string;
  branchId: string | null;
  issueDate: string | null;
  dueDate: string | null;
  qrExpiryDate: string | null;
  hasExpiryDate: boolean;
  qrReferenceNo: string | null;
  axsCode: string | null;
  isRegistrationFee: boolean;
  registrationFeeConfig: PaymentAdviceRecord["registrationFeeConfig"] | null;
  depositSettings: PaymentAdviceRecord["depositSettings"] | null;
  gst: string;
  remarks: string | null;
  notes: string | null;
  classInformations: ClassInformationStored[];
  paymentSummaryStatic: PaymentSummaryWire | null;
  summary: PaymentAdviceRecord["summary"] | null;
  status: "active" | "deleted";
  createdAt: string;
  updatedAt: string;
}

/** The PA row's columns as PaRow names them (a select's list, or an insert's or update's `returning`). */
export const PA_COLUMNS = `id, name, "paymentStatus", "studentId", "companyId", "branchId", "issueDate"::text as "issueDate", "dueDate"::text as "dueDate",
  "qrExpiryDate"::text as "qrExpiryDate", "hasExpiryDate", "qrReferenceNo", "axsCode", "isRegistrationFee", "registrationFeeConfig", "depositSettings",
  gst::text as gst, remarks, notes, "classInformations", "paymentSummaryStatic", summary, status,
  to_json("createdAt") #>> '{}' as "createdAt", to_json("updatedAt") #>> '{}' as "updatedAt"`;

/** The PA row (locked for update inside a transaction when asked); 404 when absent or deleted. */
export async function readPaRow(db: Queryable, id: string, options: { forUpdate?: boolean; includeDeleted?: boolean } = {}): Promise<PaRow> {
  const { rows } = await db.query<PaRow>(`select ${PA_COLUMNS} from payment_advices where id = $1${options.forUpdate ? " for update" : ""}`, [id]);
  const row = rows[0];
  if (!row || (row.status === "deleted" && !options.includeDeleted)) throw new FinanceError(404, PA_MESSAGES.notFound);
  return row;
}

/**
 * The PA row locked for update, and whether `updatedAt` is its stored value to the microsecond (assertFresh's rule, in
 * the same statement: the locked row's latest version is the one compared).
 */
export async function readPaRowForChange(db: Queryable, id: string, updatedAt: string): Promise<{ row: PaRow; fresh: boolean }> {
  const { rows } = await db.query<PaRow & { fresh: boolean }>(`select ${PA_COLUMNS}, "updatedAt" = $2::timestamptz as fresh from payment_advices where id = $1 for update`, [id, updatedAt]);
  const found = rows[0];
  if (!found || found.status === "deleted") throw new FinanceError(404, PA_MESSAGES.notFound);
  const { fresh, ...row } = found;
  return { row, fresh };
}

/** A stale `updatedAt` (anything but the stored value, to the microsecond) refuses the change. */
export async function assertFresh(db: Queryable, row: PaRow, updatedAt: string): Promise<void> {
  const { rows } = await db.query<{ same: boolean }>(`select $1::timestamptz = $2::timestamptz as same`, [row.updatedAt, updatedAt]);
  if (!rows[0]?.same) throw new FinanceError(409, PA_MESSAGES.stale);
}

/** The stored PA's fields as the builder would send them back (class cards left as stored). */
export function paFieldsOf(row: PaRow) {
  return {
    studentId: row.studentId,
    companyId: row.companyId,
    branchId: row.branchId,
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    qrExpiryDate: row.qrExpiryDate,
    hasExpiryDate: row.hasExpiryDate,
    axsCode: row.axsCode,
    isRegistrationFee: row.isRegistrationFee,
    gst: Number(row.gst) as GstPercent,
    remarks: row.remarks,
    notes: row.notes,
  };
}

/** Σ successful, non-deleted payments on the PA's non-voided invoices. */
export async function amountReceived(db: Queryable, paId: string): Promise<Cents> {
  const { rows } = await db.query<{ total: string }>(
    `select coalesce(sum(ip.amount), 0)::text as total from invoice_payments ip join invoices i on i.id = ip."invoiceId"
     where i."paymentAdviceId" = $1 and i."invoiceStatus" <> 'voided' and i.status <> 'deleted' and ip.status <> 'deleted' and ip."transactionStatus" = 'success'`,
    [paId],
  );
  return numericToCents(rows[0]?.total ?? "0") ?? 0;
}

export function toRecord(row: PaRow, received: Cents, now: Date = new Date()): PaymentAdviceRecord {
  const zero = centsToNumeric(0);
  return {
    id: row.id,
    name: row.name,
    paymentStatus: row.paymentStatus,
    displayStatus: displayPaStatus(row.paymentStatus, row.dueDate, now),
    studentId: row.studentId,
    companyId: row.companyId,
    branchId: row.branchId,
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    qrExpiryDate: row.qrExpiryDate,
    hasExpiryDate: row.hasExpiryDate,
    qrReferenceNo: row.qrReferenceNo,
    axsCode: row.axsCode,
    isRegistrationFee: row.isRegistrationFee,
    registrationFeeConfig: row.registrationFeeConfig ?? { amount: zero, waiverPeriod: null },
    depositSettings: row.depositSettings ?? { amount: zero },
    gst: Number(row.gst) as GstPercent,
    remarks: row.remarks,
    notes: row.notes,
    classInformations: row.classInformations ?? [],
    paymentSummaryStatic: row.paymentSummaryStatic ?? emptySummary(Number(row.gst) as GstPercent),
    summary: row.summary ?? { registrationFee: zero, total: zero },
    amountReceived: centsToNumeric(received),
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function emptySummary(gst: GstPercent): PaymentSummaryWire {
  const z = "0.00";
  return { classFee: z, registrationFee: z, materialFee: z, otherPayment: z, deduction: z, totalBeforeGst: z, gst: z, totalAfterGst: z, deposit: z, deductedDeposit: z, totalPayable: z, gstConfig: { percentage: gst } };
}

/** What a PA log row keeps of the PA (spec part 2 §3: paymentAdvice with paymentStatus and student). */
export function logSnapshot(row: PaRow, student: { id: string; fullName: string | null; username: string | null } | null, extra: Record<string, unknown> = {}) {
  return {
    paymentAdvice: {
      name: row.name,
      paymentStatus: row.paymentStatus,
      student,
      companyId: row.companyId,
      branchId: row.branchId,
      issueDate: row.issueDate,
      dueDate: row.dueDate,
      gst: Number(row.gst),
      isRegistrationFee: row.isRegistrationFee,
      remarks: row.remarks,
      classInformations: (row.classInformations ?? []).map((c) => ({ id: c.id, className: c.className, termIds: c.termIds, lessonStartDate: c.lessonStartDate, total: c.responses?.total })),
      paymentSummaryStatic: row.paymentSummaryStatic,
      ...extra,
    },
  };
}

/** A person as the documents name them (a student, an approver): id, full name (or first + last), username. */
export async function studentOf(db: Queryable, studentId: string) {
  const { rows } = await db.query<{ id: string; fullName: string | null; username: string | null }>(
    `select id, coalesce(nullif("fullName", ''), trim(coalesce("firstName", '') || ' ' || coalesce("lastName", ''))) as "fullName", username from users where id = $1`,
    [studentId],
  );
  return rows[0] ?? null;
}

export async function writeLog(db: Queryable, paId: string, type: LogType, before: unknown, after: unknown, by: string | null): Promise<void> {
  await writeLogs(db, [{ paId, type, before, after }], by);
}

type LogType = "create" | "update" | "change_status" | "duplicate";

/** Several log rows in one statement, in the order given. */
export async function writeLogs(db: Queryable, logs: ReadonlyArray<{ paId: string; type: LogType; before: unknown; after: unknown }>, by: string | null): Promise<void> {
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  await db.query(
    `insert into payment_advice_logs ("paymentAdviceId", type, "valueBefore", "valueAfter", "createdBy", "updatedBy")
     select id, type, before::jsonb, after::jsonb, $5, $5 from unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) with ordinality as x(id, type, before, after, i) order by i`,
    [logs.map((l) => l.paId), logs.map((l) => l.type), logs.map((l) => json(l.before)), logs.map((l) => json(l.after)), by],
  );
}
