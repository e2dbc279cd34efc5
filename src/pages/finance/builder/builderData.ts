/**
 * What the PA builder reads: the PA itself (GraphQL), the classes on its cards (lessons and terms over
 * GraphQL, the unit price from the server's GET /classes/class-free — the server decides prices), the
 * company's discounts and the student's paid deposits. No figure is computed here: src/domain/finance does.
 */
import { api } from "../../../app/api.ts";
import { gqlRequest } from "../../../app/graphql.ts";
import { centsToNumeric, numericToCents } from "../../../domain/money.ts";
import type { ClassFreeReply, ClassInformationStored, PaymentAdviceRecord } from "../../../domain/finance/paymentAdviceApi.ts";
import type { PricedClass } from "../../../domain/finance/paymentAdvice.ts";
import type { DiscountRule } from "../../../domain/finance/discounts.ts";
import type { WaiverPeriod } from "../../../domain/finance/registrationFee.ts";
import { isGstPercent, type GstPercent } from "../../../domain/finance/summary.ts";

/** The PA as the builder shows it: its stored record (GraphQL gives the same columns as the REST replies). */
export type PaRecord = Omit<PaymentAdviceRecord, "displayStatus" | "amountReceived"> & { amountReceived: string };

const PA_FIELDS = `id name paymentStatus studentId companyId branchId issueDate dueDate qrExpiryDate hasExpiryDate qrReferenceNo axsCode
  isRegistrationFee registrationFeeConfig depositSettings gst remarks notes classInformations paymentSummaryStatic summary status createdAt updatedAt
  invoices(where: { invoiceStatus: { _neq: "voided" } }) { paidAmount }`;

export async function fetchPaymentAdvice(id: string): Promise<PaRecord | null> {
  const data = await gqlRequest<{ pa: (Omit<PaRecord, "amountReceived"> & { invoices: { paidAmount: string }[] }) | null }>(
    `query PaymentAdvice($id: uuid!) { pa: payment_advices_by_pk(id: $id) { ${PA_FIELDS} } }`,
    { id },
  );
  // a deleted PA (admins read it over GraphQL) is gone for the builder: its page says who deleted it
  if (!data.pa || data.pa.status === "deleted") return null;
  const { invoices, ...pa } = data.pa;
  // What was received, as the stored invoices say (numeric strings added digit-exactly as cents).
  const received = invoices.reduce((s, i) => s + (numericToCents(i.paidAmount) ?? 0), 0);
  return { ...pa, gst: Number(pa.gst) as PaRecord["gst"], amountReceived: centsToNumeric(received) };
}

/** A class as a card needs it: the priced class for the live preview and what the card shows. */
export interface CardClass extends PricedClass {
  classCode: string | null;
  programId: string | null;
  programName: string | null;
  /** The programme's category code (regular, double_lesson, special, others). */
  programCategory: string | null;
  startDate: string | null;
  companyId: string | null;
}

interface ClassQueryRow {
  id: string;
  name: string;
  classCode: string | null;
  classType: string;
  classStatus: string;
  startDate: string | null;
  companyId: string | null;
  programId: string | null;
  program: { name: string; category: string } | null;
  lessons: { id: string; date: string; termId: string | null; lessonStatus: string; status: string }[];
  academicCalendar: { terms: { id: string; name: string; startDate: string; endDate: string }[] } | null;
}

export async function fetchCardClass(studentId: string, classId: string, lessonStartDate: string | null): Promise<CardClass> {
  const q = new URLSearchParams({ studentId, classId });
  if (lessonStartDate) q.set("lessonStartDate", lessonStartDate);
  const [data, free] = await Promise.all([
    gqlRequest<{ c: ClassQueryRow | null }>(
      `query CardClass($id: uuid!) { c: classes_by_pk(id: $id) {
        id name classCode classType classStatus startDate companyId programId program { name category }
        lessons(where: { status: { _neq: "deleted" } }, order_by: [{ date: asc }, { id: asc }]) { id date termId lessonStatus status }
        academicCalendar { terms(where: { status: { _neq: "deleted" } }, order_by: [{ startDate: asc }, { id: asc }]) { id name startDate endDate } }
      } }`,
      { id: classId },
    ),
    api<ClassFreeReply>("GET", `/classes/class-free?${q}`),
  ]);
  const c = data.c;
  if (!c || !free.data) throw new Error("Class not found.");
  return {
    id: c.id,
    name: c.name,
    classCode: c.classCode,
    classType: c.classType,
    classStatus: c.classStatus,
    unitPrice: numericToCents(free.data.pricing) ?? 0,
    lessons: c.lessons,
    terms: c.academicCalendar?.terms ?? [],
    programId: c.programId,
    programName: c.program?.name ?? null,
    programCategory: c.program?.category ?? null,
    startDate: c.startDate,
    companyId: c.companyId,
  };
}

export type NamedDiscount = DiscountRule & { name: string };

/** The company's discounts, not deleted (offered by issue date on each card). */
export async function fetchDiscounts(companyId: string): Promise<NamedDiscount[]> {
  const data = await gqlRequest<{ discounts: { id: string; name: string; unit: "amount" | "percent"; amount: string; startDate: string | null; endDate: string | null; status: string }[] }>(
    `query Discounts($companyId: uuid!) { discounts(where: { _and: [{ status: { _neq: "deleted" } }, { _or: [{ companyId: { _eq: $companyId } }, { companyId: { _is_null: true } }] }] }, order_by: [{ order: asc }, { name: asc }]) {
      id name unit amount startDate endDate status } }`,
    { companyId },
  );
  // DiscountRule.value: cents for an amount, hundredths of a percent for a percent (both numericToCents).
  return data.discounts.map((d) => ({ id: d.id, name: d.name, unit: d.unit, value: numericToCents(d.amount) ?? 0, startDate: d.startDate, endDate: d.endDate, status: d.status }));
}

export interface PaidDeposit {
  id: string;
  name: string;
  amount: string;
}

/** The student's paid deposits, which a card may deduct. */
export async function fetchPaidDeposits(studentId: string): Promise<PaidDeposit[]> {
  const data = await gqlRequest<{ deposits: PaidDeposit[] }>(
    `query PaidDeposits($studentId: uuid!) { deposits(where: { studentId: { _eq: $studentId }, depositStatus: { _eq: "paid" }, status: { _neq: "deleted" } }, order_by: [{ name: asc }]) { id name amount } }`,
    { studentId },
  );
  return data.deposits;
}

/** Classes that may be added to a card as booster lessons: the company's special classes, open or new. */
export async function fetchBoosterClasses(companyId: string): Promise<{ id: string; name: string }[]> {
  const data = await gqlRequest<{ classes: { id: string; name: string }[] }>(
    `query BoosterClasses($companyId: uuid!) { classes(where: { companyId: { _eq: $companyId }, classType: { _eq: "special" }, classStatus: { _neq: "closed" }, status: { _neq: "deleted" } }, order_by: [{ name: asc }], limit: 200) { id name } }`,
    { companyId },
  );
  return data.classes;
}

export type { ClassInformationStored };

/** What a new PA starts from (issue 37): the company's fee, waiver period and GST settings, as the server reads them. */
export interface CompanyFeeSettings {
  registrationFee: number;
  waiverPeriod: WaiverPeriod | null;
  gst: GstPercent;
}

/** The company's own setting first, else the global one (server/finance/pricing.ts loadSettings); no setting: 0. */
export async function fetchCompanyFeeSettings(companyId: string): Promise<CompanyFeeSettings> {
  const data = await gqlRequest<{ settings: { key: string; value: Record<string, unknown> | null; companyId: string | null }[] }>(
    `query FeeSettings($companyId: uuid!) { settings: system_settings(where: { _and: [{ status: { _eq: "active" } }, { key: { _in: ["registrationFee", "waivePeriod", "gst"] } },
      { _or: [{ companyId: { _eq: $companyId } }, { companyId: { _is_null: true } }] }] }, order_by: [{ updatedAt: desc }]) { key value companyId } }`,
    { companyId },
  );
  const v = (key: string) => (data.settings.find((s) => s.key === key && s.companyId) ?? data.settings.find((s) => s.key === key))?.value ?? null;
  const waive = v("waivePeriod") as { startDate?: string; endDate?: string } | null;
  const gst = Number((v("gst") as { percentage?: unknown } | null)?.percentage ?? 0);
  return {
    registrationFee: numericToCents((v("registrationFee") as { amount?: string } | null)?.amount ?? "0") ?? 0,
    waiverPeriod: waive?.startDate && waive.endDate ? { startDate: waive.startDate, endDate: waive.endDate } : null,
    gst: isGstPercent(gst) ? gst : 0,
  };
}
