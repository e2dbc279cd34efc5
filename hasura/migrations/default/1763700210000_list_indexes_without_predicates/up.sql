-- The engine sends every value as a parameter and PostgreSQL keeps a generic plan for a statement it runs again
-- and again; a generic plan cannot use a partial index whose predicate names a value (`where status <> 'deleted'`),
-- since `status <> $2` proves nothing about it. The student list's index was such an index: the generic plan read
-- the newest users of every role and sorted them (issue 18: bench (a) 1.19–1.26 × hand SQL, 1.05–1.10 with this).
-- The same indexes without the predicate serve every plan; deleted rows are few.
drop index users_role_updated_idx;
create index users_role_list_idx on users (role, "updatedAt" desc, id);
drop index invoices_list_idx;
create index invoices_list_idx on invoices ("invoiceDate" desc, "updatedAt" desc);
