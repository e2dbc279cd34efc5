-- Issue 31 §6 (FINANCE.md §7 "revenue recognition = revenue_*"): a recognition line names the class (null for the
-- PA's registration, material and other fees) and the month (its first day) of the revenue it moves, so the revenue
-- recognition report's month × programme split reads the ledger. Lines posted before carry neither: the start-up
-- recognition run (server/finance/ledgerBackfill.ts, `recogniseAllRevenue`) finds them as a part the model does not
-- have, reverses them and posts the same revenue again by class and month, in one balanced entry per PA.
alter table journal_lines add column "classId" uuid, add column "revenueMonth" date;
alter table journal_lines add constraint journal_lines_revenue_month_first_day check ("revenueMonth" = date_trunc('month', "revenueMonth")::date);

-- A database that already recognised revenue today would, at its next start, re-read only the students changed since
-- (1763700630000's mark): forget the mark so that start walks every student and re-posts the old lines by part.
delete from app_internal.revenue_recognition_mark;
