/**
 * Money received, line by line, from the ledger (FINANCE.md §6, §7): the one SQL source both the daily receipt
 * report and the daily closing report read, so they cannot disagree about the same money. One line per payment
 * recorded: its `payment_received` entry, on the entry's day (the receipt date), for the `cash:<method>` money it
 * brought in, with its receipt and whether the receipt was voided — a voided payment stays on its original day,
 * in the Voided column of both reports (a void turns cash received into customer credit or takes it back on the
 * day of the void; it never changes what a past day's drawer held). A payment by credit note brought no cash: it
 * is listed under its method at the receipt's amount (the credit it spent; docs/DECISIONS.md). Refunds paid out
 * are cash lines too, but not receipts: they are left out here. The cash lines of the period are summed per entry in one
 * pass (a line carries its entry's day: server/finance/ledger.ts), from the partial indexes of migration 1763700770000,
 * in cents as int8 (a year's 26,000 entries hashed in 4.9 MB, not 8.2 MB of numeric sums spilled to disk; DECISIONS).
 * Parameters: $1 from day, $2 to day, $3 company (or null), $4 branch (or null).
 */
export const CASH_LINES = `(
  select e.id, r.id as "receiptId", r.name as "receiptName", e.day, r."paymentMethod" as method,
    case when r."paymentMethod" = 'credit_note' then r.amount else coalesce(cash.amount, 0) end as amount,
    r.status = 'voided' as voided, e."companyId", r."branchId", e."studentId", i.name as invoice
  from journal_entries e join receipts r on r.id = e."documentId" left join invoices i on i.id = r."invoiceId"
    left join (select l."entryId", (sum(((l.debit - l.credit) * 100)::int8) / 100)::numeric(14, 2) as amount from journal_lines l
               where l.account = 'cash' and l.day between $1::date and $2::date group by 1) cash on cash."entryId" = e.id
  where e.operation = 'payment_received' and e."documentType" = 'receipt'
    and e.day between $1::date and $2::date and ($3::uuid is null or e."companyId" = $3) and ($4::uuid is null or r."branchId" = $4))`;
