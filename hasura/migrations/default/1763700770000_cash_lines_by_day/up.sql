-- Issue 38 §2: the daily receipt and closing reports (server/reports/cashLines.ts) read a period's payments and their
-- cash lines: both from partial indexes in day order (a year at scale 20000 is ~26,000 of each) instead of every
-- receipt entry and a lookup of each entry's lines.
create index journal_lines_cash_day_idx on journal_lines (day) include ("entryId", debit, credit) where account = 'cash';
create index journal_entries_payments_day_idx on journal_entries (day) include ("documentId", "companyId") where operation = 'payment_received' and "documentType" = 'receipt';
