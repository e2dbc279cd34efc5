-- Issue 39: only finance_manager edits the ledger's account codes (system_settings key ledgerAccountCodes);
-- finance_staff keeps every other setting. access/policy.csv says so for a new database; a database whose policy
-- was already seeded gets the same filter on the default lines it still holds (lines an admin changed are left).
update casbin_rule set v3 = '{"key":{"_neq":"ledgerAccountCodes"}}'
where ptype = 'p' and v0 = 'finance_staff' and v1 = 'data:system_settings' and v2 in ('insert', 'update') and coalesce(v3, '') = '';
