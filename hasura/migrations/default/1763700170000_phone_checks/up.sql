-- Phone numbers written as text follow the forms' rule (src/domain/validators.ts phoneNumber) whichever
-- client writes them: an optional +, digits with spaces, hyphens or brackets, 6 to 15 digits.
-- NOT VALID: rows written before the rule are kept as they are; every new or changed row is checked.
create or replace function app_internal.is_phone_number(v text) returns boolean language sql immutable as $$
  select v is null or (v ~ '^\s*\+?[0-9 ()-]+\s*$' and length(regexp_replace(v, '\D', '', 'g')) between 6 and 15)
$$;
alter table enquiries add constraint enquiries_phone_number_check check (app_internal.is_phone_number("phoneNumber")) not valid;
alter table companies add constraint companies_tel_no_check check (app_internal.is_phone_number("telNo")) not valid;
