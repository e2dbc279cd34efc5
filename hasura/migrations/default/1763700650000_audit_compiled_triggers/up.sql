-- Issue 36, the cost: each audited table gets a trigger function of its own, compiled from its columns.
--
-- The generic app_internal.audit_row() turns the old and new rows into jsonb and joins their keys to find what an
-- update changed: for a 46-column users row that is most of the trigger's cost. A table's own function compares its
-- columns one by one (`is distinct from`, no jsonb) and builds jsonb for the changed ones only; the redaction list
-- and the columns an update leaves out are applied when the function is written, not per row.
--
-- app_internal.audit_compile() (re)writes the function of every table carrying the audit_row trigger whose function
-- is not the one its current columns give, and points the trigger at it. The migration runner (server/db/migrate.ts)
-- calls it after every migration, so a column added later is audited, and a table whose migration creates the
-- trigger with the generic function gets its own; the generic function stays correct meanwhile.

-- The columns whose values never enter the log (password hashes, token and code hashes, secrets, private keys).
create or replace function app_internal.audit_redacted(col text) returns boolean language sql immutable strict as $$
  select col ~* '(password|secret|token|privatekey)|hash$'
$$;
create or replace function app_internal.audit_redact(row_json jsonb) returns jsonb language sql immutable strict as $$
  select row_json - array(select k from jsonb_object_keys(row_json) k where app_internal.audit_redacted(k))
$$;

-- The body of public.<t>'s audit function. Same entries as audit_row(): an update keeps only the changed columns but
-- updatedAt, updatedBy and numOfFailed (the log row's own time and user; the sign-in counter); an insert the new row,
-- a delete the old one, both redacted; the actor from the writer's settings, else Hasura's hasura.user.
create or replace function app_internal.audit_source(t text) returns text language plpgsql stable as $$
declare
  old_cols text := '';
  new_cols text := '';
  changed text;
  redacted text[];
  c record;
begin
  for c in
    select a.attname as name, ty.typcategory = 'G' or ty.typname in ('json', 'xml') as no_equality
    from pg_attribute a join pg_type ty on ty.oid = a.atttypid
    where a.attrelid = format('public.%I', t)::regclass and a.attnum > 0 and not a.attisdropped
    order by a.attnum
  loop
    if app_internal.audit_redacted(c.name) then
      redacted := redacted || c.name::text;
    elsif c.name not in ('updatedAt', 'updatedBy', 'numOfFailed') then
      changed := format(case when c.no_equality then 'new.%1$I::text is distinct from old.%1$I::text' else 'new.%1$I is distinct from old.%1$I' end, c.name);
      old_cols := old_cols || format(E'\n      || case when %s then jsonb_build_object(%L, old.%I) else ''{}'' end', changed, c.name, c.name);
      new_cols := new_cols || format(E'\n      || case when %s then jsonb_build_object(%L, new.%I) else ''{}'' end', changed, c.name, c.name);
    end if;
  end loop;
  return format($src$
declare
  b jsonb;
  a jsonb;
  rid text;
  uid text;
  rl text;
  caller jsonb;
begin
  if current_setting('app.audit', true) = 'off' then return null; end if;
  if tg_op = 'UPDATE' then
    -- one expression each, not a PL/pgSQL statement per column
    a := '{}'::jsonb%s;
    if a = '{}' then return null; end if;
    b := '{}'::jsonb%s;
    rid := new.id::text;
  elsif tg_op = 'INSERT' then
    a := to_jsonb(new)%s;
    rid := new.id::text;
  else
    b := to_jsonb(old)%s;
    rid := old.id::text;
  end if;
  uid := nullif(current_setting('app.user_id', true), '');
  rl := nullif(current_setting('app.role', true), '');
  if uid is null and rl is null then
    caller := app_internal.caller();
    uid := caller->>'x-hasura-user-id';
    rl := caller->>'x-hasura-role';
  end if;
  insert into app_internal.audit_log (op, "tableName", "rowId", "userId", "role", "requestId", "before", "after")
  values (lower(tg_op), tg_table_name, rid,
          case when uid ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then uid::uuid end,
          left(rl, 100), left(nullif(current_setting('app.request_id', true), ''), 100), b, a);
  return null;
end $src$,
    new_cols,
    old_cols,
    case when redacted is null then '' else format(' - %L::text[]', redacted) end,
    case when redacted is null then '' else format(' - %L::text[]', redacted) end);
end $$;

-- A table's function is app_internal.audit_row_<table> (security definer like audit_row(), so a Postgres role without
-- rights on the log still records). Functions left by a dropped table or trigger are dropped.
create or replace function app_internal.audit_compile() returns void language plpgsql as $$
declare
  r record;
  fn text;
  src text;
begin
  for r in
    select c.relname::text as t, g.tgfoid from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and g.tgname = 'audit_row' and not g.tgisinternal
  loop
    fn := left('audit_row_' || r.t, 63);
    src := app_internal.audit_source(r.t);
    continue when exists (select 1 from pg_proc p where p.oid = r.tgfoid and p.proname = fn and p.prosrc = src);
    execute format('create or replace function app_internal.%I() returns trigger language plpgsql security definer as %L', fn, src);
    execute format('drop trigger audit_row on public.%I', r.t);
    execute format('create trigger audit_row after insert or update or delete on public.%I for each row execute function app_internal.%I()', r.t, fn);
  end loop;
  for r in
    select p.proname::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'app_internal' and p.proname like 'audit\_row\_%' and not exists (select 1 from pg_trigger g where g.tgfoid = p.oid)
  loop
    execute format('drop function app_internal.%I()', r.fn);
  end loop;
end $$;

select app_internal.audit_compile();

-- The append-only guard on inserts runs only for an insert that is not the audit trigger's own: as the trigger's WHEN
-- condition, checked without calling a function, instead of a PL/pgSQL call for every audited change.
drop trigger audit_log_append_only on app_internal.audit_log;
create trigger audit_log_append_only before update or delete or truncate on app_internal.audit_log
  for each statement execute function app_internal.audit_log_append_only();
create trigger audit_log_insert_by_trigger_only before insert on app_internal.audit_log
  for each statement when (pg_trigger_depth() = 0) execute function app_internal.audit_log_append_only();
