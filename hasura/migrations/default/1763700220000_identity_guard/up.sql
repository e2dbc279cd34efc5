-- Issue 32 §1: the identity of a staff account (e-mail, phone, username, roles, status) changes only by an
-- administrator, or by the user after re-entering their password, whoever writes (our GraphQL engine, a real
-- Hasura, a REST route). The REST route that checked the password marks its transaction with
-- backoffice.reauthenticated = the user's id; the caller is hasura.user as in the guards of …100000_caller_guards.
-- No caller = a trusted writer (the server's own code, the seeds, migrations).
create or replace function app_internal.users_guard_identity() returns trigger language plpgsql as $$
declare
  actor text[] := app_internal.caller_roles();
  changed text[];
begin
  if actor is null or 'admin' = any(actor) or old.type = 'student' then return new; end if;
  select array_agg(f) into changed
  from unnest(array['email', 'phone', 'username', 'role', 'multipleRoles', 'type', 'status']) f
  where to_jsonb(new)->f is distinct from to_jsonb(old)->f;
  if changed is null then return new; end if;
  if new.id::text = app_internal.caller()->>'x-hasura-user-id'
     and current_setting('backoffice.reauthenticated', true) = new.id::text then
    return new;
  end if;
  raise exception 'Only an administrator, or the user after entering their current password, can change the e-mail, phone, username, roles or status of a staff account.'
    using errcode = '42501';
end $$;

-- Named to fire after users_guard_roles (triggers fire in name order): a refused role change keeps its own message.
create trigger users_identity_guard before update on users
  for each row execute function app_internal.users_guard_identity();

-- The e-mail addresses each user has had (lower-cased), and when the user last showed the address is theirs:
-- the account was created with it, the user set it after re-entering their password, or signed in while it was
-- current. A reset code goes to the address with the latest such time; an address someone else set that the
-- user never used gets none. Today's addresses are taken as used (we cannot know better).
create table app_internal.user_email_history (
  "userId" uuid not null references users(id) on delete cascade,
  email text not null,
  "setAt" timestamptz not null default now(),
  "lastUsedAt" timestamptz,
  primary key ("userId", email)
);

insert into app_internal.user_email_history ("userId", email, "lastUsedAt")
select id, lower(email), now() from users where email is not null and email <> ''
on conflict do nothing;

create or replace function app_internal.users_email_history() returns trigger language plpgsql as $$
declare
  used timestamptz := case when tg_op = 'INSERT' or current_setting('backoffice.reauthenticated', true) = new.id::text
    then now() end;
begin
  if coalesce(new.email, '') = '' then return null; end if;
  insert into app_internal.user_email_history ("userId", email, "lastUsedAt") values (new.id, lower(new.email), used)
  on conflict ("userId", email) do update set "lastUsedAt" = coalesce(excluded."lastUsedAt", app_internal.user_email_history."lastUsedAt");
  return null;
end $$;

create trigger users_email_history after insert or update of email on users
  for each row execute function app_internal.users_email_history();

-- Issue 32 §6 (ASVS 2.2): failed password checks in a row, per account ('*') and per account and client
-- address; each row's retryAt is when the next check may be tried (a growing delay, never a lock).
create table app_internal.sign_in_throttles (
  "userId" uuid not null references users(id) on delete cascade,
  address text not null,
  failures int not null default 0,
  "retryAt" timestamptz,
  primary key ("userId", address)
);
