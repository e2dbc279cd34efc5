-- The students list and the student pickers search name and username by substring (`_ilike '%text%'`): without an
-- index every search read every user (issue 38: 15–20 ms of PostgreSQL CPU per request at 20k students, ~3× at
-- 60k). Trigram GIN indexes answer a pattern of three or more characters from the index; a shorter one still scans.
-- pg_trgm ships with PostgreSQL's contrib (a trusted extension) and with PGlite (loaded by server/db/pglite-worker.mjs).
create extension if not exists pg_trgm;
create index users_full_name_trgm_idx on users using gin ("fullName" gin_trgm_ops);
create index users_username_trgm_idx on users using gin (username gin_trgm_ops);
