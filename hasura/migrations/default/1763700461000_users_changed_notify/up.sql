-- Issue 38: a write to users made every server re-verify every token websocket (thousands of checks for one
-- student's row). These triggers name the users a statement updated or deleted on the change channel, as
-- 'users:<id>,<id>…' (200 to a notification, within NOTIFY's 8000 bytes), so only the sockets of those users are
-- checked again; beyond 10,000 users one 'users:*' (anyone). The statement-level 'public.users' notification
-- still empties the token caches. New users have no sockets yet.
create schema if not exists hdb_catalog;

create or replace function hdb_catalog.notify_users_changed() returns trigger language plpgsql as $$
declare
  ids text;
begin
  if (select count(distinct id) from changed) > 10000 then
    perform pg_notify('hasura_changes', 'users:*');
    return null;
  end if;
  for ids in
    select string_agg(id::text, ',') from (select id, (row_number() over (order by id) - 1) / 200 as chunk from (select distinct id from changed) d) c group by chunk
  loop
    perform pg_notify('hasura_changes', 'users:' || ids);
  end loop;
  return null;
end $$;

create trigger users_changed_update after update on users referencing old table as changed
  for each statement execute function hdb_catalog.notify_users_changed();
create trigger users_changed_delete after delete on users referencing old table as changed
  for each statement execute function hdb_catalog.notify_users_changed();
