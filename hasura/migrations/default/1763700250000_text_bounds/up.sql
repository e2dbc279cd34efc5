-- Issue 32 item 3(b): every text and jsonb column of the public schema has an upper bound in the
-- database, so no client (GraphQL, REST, or the real Hasura on the same database) can store a value
-- too big to list, print or mail. Text is bounded in characters (char_length), jsonb in bytes of its
-- text (octet_length(col::text): objects and arrays alike; there are no SQL array columns).
-- Limits never undercut REST's zod limits (server/api/*.ts); docs/DECISIONS.md gives the reasons.
--
-- Constraint names say what they bound: "<column>_length_max_<n>" (characters) and
-- "<column>_size_max_<n>" (bytes). server/graphql/execute/db-errors.ts and server/api/validation.ts
-- read them to answer with the column and its limit.
--
-- A column this migration does not know fails it (no silent default). Rows already too long do not
-- stop the migration: that column's constraint stays NOT VALID (new and changed rows are checked) and
-- a warning names it. tests/server/security-text-bounds.test.ts checks that later tables are bounded too.

-- Adds a table's checks in one statement (one scan). When existing rows break one, every check is
-- added NOT VALID instead and then validated one by one; those the rows break stay NOT VALID, with a warning.
create function pg_temp.add_bounds(tbl text, names text[], exprs text[]) returns void language plpgsql as $f$
declare
  i int;
begin
  execute format('alter table public.%I ', tbl)
    || (select string_agg(format('add constraint %I check (%s)', n, e), ', ') from unnest(names, exprs) as x(n, e));
exception when check_violation then
  for i in 1 .. array_length(names, 1) loop
    execute format('alter table public.%I add constraint %I check (%s) not valid', tbl, names[i], exprs[i]);
    begin
      execute format('alter table public.%I validate constraint %I', tbl, names[i]);
    exception when check_violation then
      raise warning 'text bounds: rows of % already break %; it checks new and changed rows only', tbl, names[i];
    end;
  end loop;
end $f$;

do $$
declare
  col record;
  lim int;
  tbl text := null;
  names text[];
  exprs text[];
begin
  for col in
    select c.table_name as t, c.column_name as c, c.data_type as dt
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.data_type in ('text', 'jsonb', 'json', 'character varying')
    order by c.table_name, c.ordinal_position
  loop
    lim := case
      -- the big and special ones, one by one
      when (col.t, col.c) = ('payment_advices', 'notes') then 100000          -- REST: notes max 100,000
      when (col.t, col.c) = ('invoices', 'notes') then 100000
      when (col.t, col.c) = ('companies', 'paNotes') then 200000            -- REST: rich text max 200,000
      when (col.t, col.c) = ('news', 'message') then 200000                 -- the news' rich text
      when col.c = 'content' then 200000                                     -- posts, resources, surveys, broadcasts
      when (col.t, col.c) = ('outbox', 'body') then 1000000                  -- a mail's HTML, made by the server
      when (col.t, col.c) = ('outbox', 'payload') then 50000000              -- base64 attachments (a PA's PDF with a 5 MB logo)
      when col.t = 'policy_changes' then 5000000                             -- the whole policy CSV (about 65 kB today)
      when col.t = 'casbin_rule' then 1000
      when col.c in ('valueBefore', 'valueAfter') then 1000000               -- change logs' snapshots of a document
      when (col.t, col.c) = ('payment_advices', 'classInformations') then 1000000  -- up to 30 classes with their terms
      when (col.t, col.c) = ('system_settings', 'value') then 1000000        -- holds the default PA notes (rich text)
      when (col.t, col.c) = ('media_objects', 'key') then 1000
      when col.dt in ('jsonb', 'json') then 100000                           -- any other document: ids, parents, summaries
      -- text, by what the column holds
      when col.c like '%Hash' then 1000                                      -- argon2 / sha-256 digests
      when col.c = 'email' then 254                                          -- RFC 5321
      when col.c like '%Url' or col.c = 'link' then 2000
      when col.c in ('remark', 'remarks', 'reason', 'reasons', 'reasonReject', 'voidReason', 'description', 'message',
                     'footer', 'failureReason', 'lastError', 'address', 'rating', 'tag', 'recipient') then 5000
      when col.c in ('title', 'subject') then 300                            -- REST: news titles 300
      when (col.t, col.c) in (('enquiries', 'type'), ('news', 'type')) then 300  -- free text on their forms, not enumerations
      when col.c in ('name', 'username', 'city', 'country', 'contentType', 'referenceNo', 'qrReferenceNo')
           or col.c like '%Name' or col.c = 'nameOfReport' then 200             -- REST: names 64-200
      when col.c in ('status', 'type', 'ptype', 'category', 'direction', 'gender', 'role', 'unit', 'channel', 'action',
                     'paymentMethod', 'cardType', 'refundMethod', 'lessonType', 'classTier', 'documentType', 'statusSent', 'alg')
           or col.c like '%Status' or col.c like '%Stattus' or col.c like '%Type' then 50   -- enumerations
      when col.c in ('code', 'abbreviation', 'uen', 'gstRefNo', 'telNo', 'phoneNumber', 'cardNo', 'deviceId', 'kid',
                     'studentId', 'bankNumber', 'cognitoId', 'key')
           or col.c like '%Code' then 100                                    -- codes and numbers
    end;
    if lim is null then
      raise exception 'text bounds: no limit decided for %.% (%)', col.t, col.c, col.dt;
    end if;
    if tbl is distinct from col.t then
      if tbl is not null then perform pg_temp.add_bounds(tbl, names, exprs); end if;
      tbl := col.t;
      names := '{}';
      exprs := '{}';
    end if;
    if col.dt in ('jsonb', 'json') then
      names := names || (col.c || '_size_max_' || lim);
      exprs := exprs || format('octet_length(%I::text) <= %s', col.c, lim);
    else
      names := names || (col.c || '_length_max_' || lim);
      exprs := exprs || format('char_length(%I) <= %s', col.c, lim);
    end if;
  end loop;
  if tbl is not null then perform pg_temp.add_bounds(tbl, names, exprs); end if;
end $$;

drop function pg_temp.add_bounds(text, text[], text[]);
