-- Issue 38 §2: the PA listing's totals over a year summed every PA of the period and every invoice's amount received
-- (0.8–1.0 s at scale 20000 under load). They are kept here per issue day, company, branch, stored status and due
-- date (the shown status, Overdue, follows from the last two): the PAs listed, their totals and their amounts received
-- (Σ paidAmount of their live invoices), maintained in the same transaction by statement-level triggers on
-- payment_advices and invoices that add and take away each change (row upserts: concurrent writes add up). The
-- report reads them (server/reports/billing.ts); `npm run reconcile` checks them against the PAs and invoices.
-- A PA is listed: status 'active', paymentStatus not 'draft', an issue date.
create table app_internal.pa_listing_days (
  "issueDate" date not null,
  "companyId" uuid not null,
  "branchId" uuid,
  "paymentStatus" text not null,
  "dueDate" date,
  pas integer not null,
  total numeric(14,2) not null,
  received numeric(14,2) not null,
  unique nulls not distinct ("issueDate", "companyId", "branchId", "paymentStatus", "dueDate")
);

-- the SQL adding (sign 1) or taking away (sign -1) the listed PAs of `pas` (payment_advices or a transition table)
-- whose ids satisfy `ids`, each with its live invoices' amounts received as they stand
create function app_internal.pa_listing_days_sql(sign integer, pas text, ids text default 'true') returns text
language sql immutable as $$
  select format($f$insert into app_internal.pa_listing_days as d ("issueDate", "companyId", "branchId", "paymentStatus", "dueDate", pas, total, received)
    select p."issueDate", p."companyId", p."branchId", p."paymentStatus", p."dueDate", %1$s * count(*),
      %1$s * coalesce(sum(coalesce(p.summary->>'total', '0')::numeric), 0), %1$s * coalesce(sum(rc.received), 0)
    from %2$s p left join (select i."paymentAdviceId", sum(i."paidAmount") as received from invoices i
      where i."invoiceStatus" <> 'voided' and i.status <> 'deleted' and i."paymentAdviceId" in (select id from %2$s) group by 1) rc on rc."paymentAdviceId" = p.id
    where p.status = 'active' and p."paymentStatus" <> 'draft' and p."issueDate" is not null and %3$s
    group by 1, 2, 3, 4, 5
    on conflict ("issueDate", "companyId", "branchId", "paymentStatus", "dueDate")
      do update set pas = d.pas + excluded.pas, total = d.total + excluded.total, received = d.received + excluded.received$f$,
    sign, pas, ids)
$$;

create function app_internal.pa_listing_days_pas() returns trigger
language plpgsql as $$
declare
  -- only the PAs whose listing, group or total changed (a PA is updated often: its notes, its updatedAt)
  changed constant text := $c$p.id in (select o.id from old_rows o join new_rows n on n.id = o.id
    where (o.status, o."paymentStatus", o."issueDate", o."dueDate", o."companyId", o."branchId", o.summary->>'total')
      is distinct from (n.status, n."paymentStatus", n."issueDate", n."dueDate", n."companyId", n."branchId", n.summary->>'total'))$c$;
begin
  if tg_op = 'INSERT' then
    execute app_internal.pa_listing_days_sql(1, 'new_rows');
  elsif tg_op = 'DELETE' then
    execute app_internal.pa_listing_days_sql(-1, 'old_rows');
  else
    execute app_internal.pa_listing_days_sql(-1, 'old_rows', changed);
    execute app_internal.pa_listing_days_sql(1, 'new_rows', changed);
  end if;
  return null;
end $$;

create trigger pa_listing_days_on_insert after insert on payment_advices referencing new table as new_rows
  for each statement execute function app_internal.pa_listing_days_pas();
create trigger pa_listing_days_on_update after update on payment_advices referencing old table as old_rows new table as new_rows
  for each statement execute function app_internal.pa_listing_days_pas();
create trigger pa_listing_days_on_delete after delete on payment_advices referencing old table as old_rows
  for each statement execute function app_internal.pa_listing_days_pas();

-- an invoice's amount received (or its being live) moves its PA's received, in the group the PA is in now
create function app_internal.pa_listing_days_invoices() returns trigger
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
  else
    execute format(moved, format('select "paymentAdviceId", "paidAmount" as amount from new_rows where %1$s union all select "paymentAdviceId", -"paidAmount" from old_rows where %1$s', live));
  end if;
  return null;
end $$;

create trigger pa_listing_days_on_invoice_insert after insert on invoices referencing new table as new_rows
  for each statement execute function app_internal.pa_listing_days_invoices();
create trigger pa_listing_days_on_invoice_update after update on invoices referencing old table as old_rows new table as new_rows
  for each statement execute function app_internal.pa_listing_days_invoices();
create trigger pa_listing_days_on_invoice_delete after delete on invoices referencing old table as old_rows
  for each statement execute function app_internal.pa_listing_days_invoices();

do $$ begin execute app_internal.pa_listing_days_sql(1, 'payment_advices'); end $$;
