-- Issue 39 §1: each term billing run stored, so closing the browser does not lose its summary. The screen's issue
-- calls (a batch each) add their students' outcomes to the run the first call created; students left out (unticked
-- or skipped by the preview) are recorded with their reason. results: [{studentId, studentName, status, name?,
-- paymentAdviceId?, total?, reason?}] in the run's order. Not money: the PAs are the money, each issued by the finance service.
create table billing_runs (
  id uuid primary key default gen_random_uuid(),
  "companyId" uuid not null references companies(id),
  "branchId" uuid not null references branches(id),
  selection jsonb not null constraint "selection_size_max_100000" check (octet_length(selection::text) <= 100000),
  "issuedCount" integer not null default 0 check ("issuedCount" >= 0),
  "skippedCount" integer not null default 0 check ("skippedCount" >= 0),
  total numeric(12,2) not null default 0 check (total >= 0),
  -- 2,000 students of about 300 bytes each, with room
  results jsonb not null default '[]' constraint "results_size_max_2000000" check (octet_length(results::text) <= 2000000),
  status text not null default 'active' constraint "status_length_max_20" check (char_length(status) <= 20) check (status in ('active', 'deleted'))
);

create trigger audit_row after insert or update or delete on public.billing_runs for each row execute function app_internal.audit_row();
select app_internal.standardize();
create index billing_runs_company_created_idx on billing_runs ("companyId", "createdAt" desc);
