-- Issue 10 §5: when a sign-in session ends (a refresh token is revoked: sign-out, reuse of a rotated token,
-- password change, lockout), tell every server instance on the change channel, so cached token checks are
-- dropped and open websockets of that session are closed at once.
create schema if not exists hdb_catalog;

create or replace function hdb_catalog.notify_session_ended() returns trigger language plpgsql as $$
begin
  perform pg_notify('hasura_changes', 'auth.sessions');
  return null;
end $$;

create trigger refresh_tokens_session_ended
  after update of "revokedAt" on refresh_tokens
  for each row when (old."revokedAt" is null and new."revokedAt" is not null)
  execute function hdb_catalog.notify_session_ended();
