-- Issue 10 §8, for databases whose policy was seeded before (a fresh database is seeded from
-- access/policy.csv, which says the same): PATCH /users/{username}/check-block needs a signed-in staff
-- member, and the token refresh is also offered as POST. Nothing is written into an empty rule table, so
-- the first start still seeds it from the file.
delete from casbin_rule where ptype = 'p' and v0 = 'anonymous' and v1 = 'api:/users/:username/check-block' and v2 = 'PATCH';

insert into casbin_rule (ptype, v0, v1, v2)
select 'p', r.v0, r.v1, r.v2
from (values ('staff', 'api:/users/:username/check-block', 'PATCH'), ('anonymous', 'api:/auth/access-token', 'POST')) as r(v0, v1, v2)
where exists (select 1 from casbin_rule)
  and not exists (select 1 from casbin_rule c where c.ptype = 'p' and c.v0 = r.v0 and c.v1 = r.v1 and c.v2 = r.v2);
