-- The bank reconciliation tables came after the audit trail: every business table is audited (issue 36), so a
-- table made later takes the trigger in a migration of its own.
create trigger audit_row after insert or update or delete on public.bank_statement_mappings for each row execute function app_internal.audit_row();
create trigger audit_row after insert or update or delete on public.bank_statement_lines for each row execute function app_internal.audit_row();
