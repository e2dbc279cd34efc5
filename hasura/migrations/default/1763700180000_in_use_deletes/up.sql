-- A reference record in use is never deleted (issue 19 §5): marking a category, programme type, level,
-- subject or school 'deleted' is refused while a row that is not itself deleted points at it through a
-- foreign key. The message is written for users (the back-office shows it as the toast).
create or replace function app_internal.refuse_deleting_in_use() returns trigger language plpgsql as $$
declare
  fk record;
  in_use boolean;
begin
  if new.status is distinct from 'deleted' or old.status = 'deleted' then
    return new;
  end if;
  for fk in
    select c.conrelid::regclass as child, a.attname as col,
           exists (select 1 from pg_attribute s where s.attrelid = c.conrelid and s.attname = 'status' and not s.attisdropped) as has_status
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'f' and c.confrelid = TG_RELID and array_length(c.conkey, 1) = 1
  loop
    execute format('select exists (select 1 from %s where %I = $1%s)', fk.child, fk.col,
                   case when fk.has_status then ' and status is distinct from ''deleted''' else '' end)
      into in_use using old.id;
    if in_use then
      raise exception 'This record is in use and cannot be deleted';
    end if;
  end loop;
  return new;
end $$;

do $$
declare t text;
begin
  foreach t in array array['categories', 'program_types', 'levels', 'subjects', 'schools'] loop
    execute format('create trigger refuse_deleting_in_use before update of status on public.%I
                    for each row execute function app_internal.refuse_deleting_in_use()', t);
  end loop;
end $$;
