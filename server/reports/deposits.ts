/**
 * Deposits (issue 17, issue 31; FINANCE.md §6 "collected = held + used + refunded", §7 "deposits = deposits_held"):
 * per student, the ledger's deposits_held account over the period — held at its start, what came in and went out
 * by kind, held at its end — so the report is the ledger, line for line. By the operation of each entry:
 * - collected: deposits paid with their PA (`payment_received`; a receipt void that makes the PA unpaid takes them back);
 * - released: deposits collected on a paid PA that was then voided (the money became the student's credit);
 * - used: deposits deducted on a PA (issued or edited; given back when that PA is voided or withdrawn);
 * - refunded: deposits included in a refunded refund.
 * A void of a paid PA posts one deposits_held line, the net of the deposits it releases and the deductions it gives
 * back: the deductions given back are what the PA's own issue and edit entries deducted, the rest is released.
 * `npm run reconcile` checks these figures against the documents and the ledger's balance.
 */
import type { Queryable } from "../db/index.ts";
import { centsToNumeric, numericToCents, type Cents } from "../../src/domain/money.ts";
import type { ReportResult } from "../../src/domain/reports.ts";
import type { ReportFilters } from "./filters.ts";

const cents = (v: string | null | undefined): Cents => numericToCents(v ?? "0") ?? 0;

export const DEPOSIT_FIGURES = ["opening", "collected", "released", "used", "refunded", "held"] as const;
export type DepositFigures = Record<(typeof DEPOSIT_FIGURES)[number], Cents>;

/**
 * Each student's deposits_held movements from `from` to `to` (entry days), of one company or all (and of the
 * students given, or all), with the balance before and after: opening + collected − released − used − refunded = held.
 */
export async function depositMovements(
  db: Queryable,
  f: Pick<ReportFilters, "from" | "to" | "companyId">,
  students: readonly string[] | null = null,
): Promise<Array<DepositFigures & { studentId: string; student: string | null }>> {
  const { rows } = await db.query<Record<(typeof DEPOSIT_FIGURES)[number], string> & { studentId: string; student: string | null }>(
    `with moves as (
       select e.id, e."studentId", e.day, e.operation, e."documentId", coalesce(sum(l.credit - l.debit) filter (where l.account = 'deposits_held'), 0) as held
       from journal_entries e join journal_lines l on l."entryId" = e.id
       where e.day <= $2::date and ($3::uuid is null or e."companyId" = $3) and (l.account = 'deposits_held' or e.operation = 'pa_voided_paid')
         and ${students ? `e."studentId" = any($4::uuid[])` : "true"}
       group by e.id
     ), returned as (
       select e."documentId" as pa, sum(l.debit - l.credit) as amount
       from journal_entries e join journal_lines l on l."entryId" = e.id
       where e.operation in ('pa_issued', 'pa_edited') and l.account = 'deposits_held'
         and e."documentId" in (select "documentId" from moves where operation = 'pa_voided_paid')
       group by 1
     ), kinds as (
       select m."studentId", m.day >= $1::date as within, m.held,
         case when m.operation in ('payment_received', 'receipt_voided') then m.held else 0 end as collected,
         case when m.operation = 'pa_voided_paid' then coalesce(r.amount, 0) - m.held else 0 end as released,
         case when m.operation = 'pa_voided_paid' then -coalesce(r.amount, 0)
              when m.operation in ('pa_issued', 'pa_edited', 'pa_voided_unpaid', 'pa_withdrawn') then -m.held else 0 end as used,
         case when m.operation = 'refund_refunded' then -m.held else 0 end as refunded
       from moves m left join returned r on r.pa = m."documentId" and m.operation = 'pa_voided_paid'
     )
     select k."studentId", coalesce(u."fullName", u.username) as student,
       coalesce(sum(k.held) filter (where not k.within), 0)::text as opening,
       coalesce(sum(k.collected) filter (where k.within), 0)::text as collected,
       coalesce(sum(k.released) filter (where k.within), 0)::text as released,
       coalesce(sum(k.used) filter (where k.within), 0)::text as used,
       coalesce(sum(k.refunded) filter (where k.within), 0)::text as refunded,
       sum(k.held)::text as held
     from kinds k left join users u on u.id = k."studentId"
     group by k."studentId", u."fullName", u.username
     having sum(k.held) <> 0 or bool_or(k.within and (k.collected <> 0 or k.released <> 0 or k.used <> 0 or k.refunded <> 0))
     order by 2, 1`,
    [f.from, f.to, f.companyId, ...(students ? [students] : [])],
  );
  return rows.map((r) => ({ studentId: r.studentId, student: r.student, ...(Object.fromEntries(DEPOSIT_FIGURES.map((k) => [k, cents(r[k])])) as DepositFigures) }));
}

const TITLES: Record<(typeof DEPOSIT_FIGURES)[number], string> = {
  opening: "Held at Start", collected: "Collected", released: "Released", used: "Used", refunded: "Refunded", held: "Held",
};

export async function depositReport(db: Queryable, f: ReportFilters): Promise<ReportResult> {
  const students = await depositMovements(db, f);
  const total = (k: (typeof DEPOSIT_FIGURES)[number]) => students.reduce((s, r) => s + r[k], 0);
  return {
    columns: [{ key: "student", title: "Student", kind: "text" }, ...DEPOSIT_FIGURES.map((k) => ({ key: k, title: TITLES[k], kind: "money" as const }))],
    rows: students.map((r) => ({ student: r.student, ...Object.fromEntries(DEPOSIT_FIGURES.map((k) => [k, centsToNumeric(r[k])])) })),
    totals: { student: `${students.length} students`, ...Object.fromEntries(DEPOSIT_FIGURES.map((k) => [k, centsToNumeric(total(k))])) },
    summary: DEPOSIT_FIGURES.map((k) => ({ label: TITLES[k], value: centsToNumeric(total(k)), kind: "money" as const })),
    chart: { title: "Deposits by movement", category: "Movement", value: "Amount", data: DEPOSIT_FIGURES.map((k) => ({ category: TITLES[k], value: total(k) / 100 })) },
  };
}
