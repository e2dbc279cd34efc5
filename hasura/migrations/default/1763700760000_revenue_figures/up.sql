-- Issue 31 §6, issue 38 §2: the revenue recognition report's four figures per month and programme are sums of journal
-- lines (docs/DECISIONS.md "Revenue by class and month in the ledger"). A revenue_deferred line of a PA's recognition
-- entry may carry the figure it states for its class and month: 'billed' (a credit raises it) or 'credited' (a debit
-- raises it); recognised is, as before, the revenue_recognised lines of those entries. The document entries move
-- revenue_deferred without a class or month; the recognition entry in the same transaction allocates what they moved
-- to the parts the revenue model has, against an untagged line of revenue_deferred, and moves a figure between parts
-- when the model's split moves (fees dated on payment, lessons delivered, a credit from deferred to recognised lessons).
alter table journal_lines add column "revenueFigure" text check (char_length("revenueFigure") <= 16 and "revenueFigure" in ('billed', 'credited'));

-- What the report sums, per company, PA issue day, programme (fees apart) and revenue month: a statement-level trigger
-- on journal_lines (insert-only) appends each statement's sums in the same transaction, and the daily recognition run
-- folds the rows of a key into one (`revenue_summary_compact`), so a year's report reads a few thousand rows, not
-- every line. Appended, not upserted: a row per key updated by every student's operation would make concurrent
-- operations of different students wait on (and deadlock over) the same rows.
create table app_internal.revenue_summary (
  "companyId" uuid not null,
  "issueDate" date not null,
  "programId" uuid,
  fees boolean not null,
  "revenueMonth" date,
  billed numeric(14,2) not null,
  credited numeric(14,2) not null,
  recognised numeric(14,2) not null
);
create index revenue_summary_issue_idx on app_internal.revenue_summary ("issueDate");

-- adds (sign 1) or takes away (sign -1) the figures of `lines` (journal_lines or a transition table) whose entries'
-- PA `pas` admits
create function app_internal.revenue_summary_sql(sign integer, lines text, pas text default 'true') returns text
language sql immutable as $$
  select format($f$insert into app_internal.revenue_summary ("companyId", "issueDate", "programId", fees, "revenueMonth", billed, credited, recognised)
    select pa."companyId", pa."issueDate", c."programId", l."classId" is null, l."revenueMonth",
      %1$s * coalesce(sum(l.credit - l.debit) filter (where l."revenueFigure" = 'billed'), 0),
      %1$s * coalesce(sum(l.debit - l.credit) filter (where l."revenueFigure" = 'credited'), 0),
      %1$s * coalesce(sum(l.credit - l.debit) filter (where l.account = 'revenue_recognised'), 0)
    from %2$s l join journal_entries e on e.id = l."entryId" join payment_advices pa on pa.id = e."documentId" left join classes c on c.id = l."classId"
    where e.operation = 'revenue_recognised' and e."documentType" = 'payment_advice' and pa."issueDate" is not null
      and (l."revenueFigure" is not null or l.account = 'revenue_recognised') and %3$s
    group by 1, 2, 3, 4, 5$f$,
    sign, lines, pas)
$$;

create function app_internal.revenue_summary_lines() returns trigger
language plpgsql as $$
begin
  execute app_internal.revenue_summary_sql(1, 'new_rows');
  return null;
end $$;

create trigger revenue_summary_on_insert after insert on journal_lines referencing new table as new_rows
  for each statement execute function app_internal.revenue_summary_lines();

-- a PA whose issue day or company changes (an unpaid PA edited) moves its figures to the new key
create function app_internal.revenue_summary_pas() returns trigger
language plpgsql as $$
declare
  moved constant text := $m$pa.id in (select o.id from old_rows o join new_rows n on n.id = o.id where (o."issueDate", o."companyId") is distinct from (n."issueDate", n."companyId"))$m$;
begin
  if exists (select 1 from old_rows o join new_rows n on n.id = o.id where (o."issueDate", o."companyId") is distinct from (n."issueDate", n."companyId")) then
    execute replace(app_internal.revenue_summary_sql(-1, 'journal_lines', moved), 'payment_advices pa', 'old_rows pa');
    execute replace(app_internal.revenue_summary_sql(1, 'journal_lines', moved), 'payment_advices pa', 'new_rows pa');
  end if;
  return null;
end $$;

create trigger revenue_summary_on_pa_update after update on payment_advices referencing old table as old_rows new table as new_rows
  for each statement execute function app_internal.revenue_summary_pas();

-- one row per key (rows summing to nothing dropped); concurrent appends are left for the next run
create function app_internal.revenue_summary_compact() returns void
language sql as $$
  with folded as (delete from app_internal.revenue_summary returning *)
  insert into app_internal.revenue_summary ("companyId", "issueDate", "programId", fees, "revenueMonth", billed, credited, recognised)
  select "companyId", "issueDate", "programId", fees, "revenueMonth", sum(billed), sum(credited), sum(recognised)
  from folded group by 1, 2, 3, 4, 5 having sum(billed) <> 0 or sum(credited) <> 0 or sum(recognised) <> 0
$$;

-- the recognition lines already posted; billed and credited follow at the next start, whose recognition walk allocates
-- every PA's figures (the mark forgotten, as 1763700640000 did)
do $$ begin execute app_internal.revenue_summary_sql(1, 'journal_lines'); end $$;
delete from app_internal.revenue_recognition_mark;
