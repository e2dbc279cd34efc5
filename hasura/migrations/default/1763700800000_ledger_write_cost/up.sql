-- Issue 31 (session 23): the same checks and sums as before, fewer executions per finance operation.
--
-- 1. An entry's balance checked once per entry and once per statement of lines, not once per line. The ledger's writer
--    (server/finance/ledger.ts, writeEntries) inserts every line of an entry in one statement: a statement-level
--    trigger checks each entry that statement touched (all its lines, earlier ones included), and the deferred
--    per-entry trigger of 1763700300000_ledger still refuses, at commit, an entry left without lines. Stricter than
--    the per-line deferred check it replaces (lines may no longer be balanced by a later statement of the transaction).
drop trigger journal_lines_balanced on journal_lines;

create function app_internal.journal_lines_balanced() returns trigger language plpgsql as $$
declare
  e uuid;
  d numeric;
  c numeric;
begin
  select t.id, t.d, t.c into e, d, c from (
    select l."entryId" as id, coalesce(sum(l.debit), 0) as d, coalesce(sum(l.credit), 0) as c
    from journal_lines l where l."entryId" in (select distinct n."entryId" from new_rows n) group by l."entryId"
  ) t where t.d <> t.c or t.d = 0 limit 1;
  if e is not null then
    raise exception 'Journal entry % is not balanced: debits % ≠ credits %.', e, d, c using errcode = '23514';
  end if;
  return null;
end $$;

create trigger journal_lines_balanced after insert on journal_lines referencing new table as new_rows
  for each statement execute function app_internal.journal_lines_balanced();

-- 2. The revenue report's sums appended by a static statement (its plan kept by PL/pgSQL) instead of one built and
--    planned again on every insert of lines (1763700760000_revenue_figures); the same rows.
create or replace function app_internal.revenue_summary_lines() returns trigger
language plpgsql as $$
begin
  insert into app_internal.revenue_summary ("companyId", "issueDate", "programId", fees, "revenueMonth", billed, credited, recognised)
  select pa."companyId", pa."issueDate", c."programId", l."classId" is null, l."revenueMonth",
    coalesce(sum(l.credit - l.debit) filter (where l."revenueFigure" = 'billed'), 0),
    coalesce(sum(l.debit - l.credit) filter (where l."revenueFigure" = 'credited'), 0),
    coalesce(sum(l.credit - l.debit) filter (where l.account = 'revenue_recognised'), 0)
  from new_rows l join journal_entries e on e.id = l."entryId" join payment_advices pa on pa.id = e."documentId" left join classes c on c.id = l."classId"
  where e.operation = 'revenue_recognised' and e."documentType" = 'payment_advice' and pa."issueDate" is not null
    and (l."revenueFigure" is not null or l.account = 'revenue_recognised')
  group by 1, 2, 3, 4, 5;
  return null;
end $$;

-- 3. The PA listing's sums (1763700771000_pa_listing_days) moved only when an update changed what they hold: most
--    updates of a PA or an invoice (its status after a payment is the exception) change none of it, and each move
--    is two statements built and planned again. A static test first (its plan kept).
create or replace function app_internal.pa_listing_days_pas() returns trigger
language plpgsql as $$
declare
  changed constant text := $c$p.id in (select o.id from old_rows o join new_rows n on n.id = o.id
    where (o.status, o."paymentStatus", o."issueDate", o."dueDate", o."companyId", o."branchId", o.summary->>'total')
      is distinct from (n.status, n."paymentStatus", n."issueDate", n."dueDate", n."companyId", n."branchId", n.summary->>'total'))$c$;
begin
  if tg_op = 'INSERT' then
    execute app_internal.pa_listing_days_sql(1, 'new_rows');
  elsif tg_op = 'DELETE' then
    execute app_internal.pa_listing_days_sql(-1, 'old_rows');
  elsif exists (select 1 from old_rows o join new_rows n on n.id = o.id
      where (o.status, o."paymentStatus", o."issueDate", o."dueDate", o."companyId", o."branchId", o.summary->>'total')
        is distinct from (n.status, n."paymentStatus", n."issueDate", n."dueDate", n."companyId", n."branchId", n.summary->>'total')) then
    execute app_internal.pa_listing_days_sql(-1, 'old_rows', changed);
    execute app_internal.pa_listing_days_sql(1, 'new_rows', changed);
  end if;
  return null;
end $$;

create or replace function app_internal.pa_listing_days_invoices() returns trigger
language plpgsql as $$
declare
  moved constant text := $m$insert into app_internal.pa_listing_days as d ("issueDate", "companyId", "branchId", "paymentStatus", "dueDate", pas, total, received)
    select p."issueDate", p."companyId", p."branchId", p."paymentStatus", p."dueDate", 0, 0, sum(x.amount)
    from (%s) x join payment_advices p on p.id = x."paymentAdviceId"
    where p.status = 'active' and p."paymentStatus" <> 'draft' and p."issueDate" is not null
    group by 1, 2, 3, 4, 5 having sum(x.amount) <> 0
    on conflict ("issueDate", "companyId", "branchId", "paymentStatus", "dueDate") do update set received = d.received + excluded.received$m$;
  live constant text := $l$"invoiceStatus" <> 'voided' and status <> 'deleted' and "paidAmount" <> 0$l$;
begin
  if tg_op = 'INSERT' then
    execute format(moved, format('select "paymentAdviceId", "paidAmount" as amount from new_rows where %s', live));
  elsif tg_op = 'DELETE' then
    execute format(moved, format('select "paymentAdviceId", -"paidAmount" as amount from old_rows where %s', live));
  elsif exists (select 1 from old_rows o join new_rows n on n.id = o.id
      where (o."invoiceStatus" = 'voided', o.status = 'deleted', o."paidAmount", o."paymentAdviceId")
        is distinct from (n."invoiceStatus" = 'voided', n.status = 'deleted', n."paidAmount", n."paymentAdviceId")) then
    execute format(moved, format('select "paymentAdviceId", "paidAmount" as amount from new_rows where %1$s union all select "paymentAdviceId", -"paidAmount" from old_rows where %1$s', live));
  end if;
  return null;
end $$;
