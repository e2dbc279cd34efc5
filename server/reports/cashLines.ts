/**
 * Money received, line by line (FINANCE.md §6, §7): the one SQL source both the daily receipt report and the daily
 * closing report read, so they cannot disagree about the same money. One line per successful payment with its
 * receipt: the day it was received (Singapore), the method, the amount, and whether it was voided — a voided
 * payment or receipt stays on its original day, in the Voided column of both reports (a void turns cash received
 * into customer credit; it never changes what a past day's drawer held).
 * When the ledger lands, this becomes the `cash:<method>` lines by day; the reports stay as they are.
 * Parameters: $1 from day, $2 to day, $3 company (or null), $4 branch (or null).
 */
import { PERIOD_END, PERIOD_START } from "./filters.ts";

export const CASH_LINES = `(
  select p.id, r.id as "receiptId", r.name as "receiptName", to_char(p."paidAt" at time zone 'Asia/Singapore', 'YYYY-MM-DD') as day,
    p."paymentMethod" as method, p.amount, (p.status = 'deleted' or coalesce(r.status = 'voided', false)) as voided,
    i."companyId", r."branchId", coalesce(r."studentId", i."studentId") as "studentId", i.name as invoice
  from invoice_payments p join invoices i on i.id = p."invoiceId" left join receipts r on r.id = p."receiptId"
  where p."paidAt" >= ${PERIOD_START(1)} and p."paidAt" < ${PERIOD_END(2)} and p."transactionStatus" = 'success'
    and ($3::uuid is null or i."companyId" = $3) and ($4::uuid is null or r."branchId" = $4))`;
