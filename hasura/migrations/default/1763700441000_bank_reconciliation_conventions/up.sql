-- The bank reconciliation tables keep the conventions of every business table (DESIGN §3): soft deletion through
-- status, and — made after the audit trail's migration — the audit trigger (issue 36), in a migration of their own.
alter table bank_statement_mappings add column status text not null default 'active' constraint "status_length_max_20" check (char_length(status) <= 20) check (status in ('active', 'deleted'));
alter table bank_statement_lines add column status text not null default 'active' constraint "status_length_max_20" check (char_length(status) <= 20) check (status in ('active', 'deleted'));
create trigger audit_row after insert or update or delete on public.bank_statement_mappings for each row execute function app_internal.audit_row();
create trigger audit_row after insert or update or delete on public.bank_statement_lines for each row execute function app_internal.audit_row();
select app_internal.standardize();
