import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEngine, admin, user } from "./graphql-helpers.ts";
import { explain } from "../../server/graphql/execute/run.ts";
import type { Session } from "../../server/auth/types.ts";

/** Compiled-SQL snapshots of representative queries and roles: one parameterised statement per root field. */
describe("compiled SQL", () => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    t = await openEngine("pglite");
  });
  afterAll(async () => t?.close());
  const sql = (query: string, session: Session = admin, variables?: Record<string, unknown>) =>
    explain((t.engine as unknown as { contextFor(s: Session): Parameters<typeof explain>[0] }).contextFor(session), { query, variables });

  it("admin list with filter, order, limit and an object relationship", () => {
    expect(sql(`{ gql_article(where: {title: {_ilike: "%a%"}}, order_by: {author: {name: desc}}, limit: 10) { id author { name } } }`)).toMatchInlineSnapshot(`
      [
        {
          "field": "gql_article",
          "params": [
            "%a%",
            "10",
          ],
          "sql": "select (select coalesce(json_agg("_3"."__j" order by "_3"."__o0" desc nulls first), '[]'::json) from (select json_build_object('id', "_1"."id", 'author', case when ("_1"."__r0")."id" is not null then json_build_object('name', ("_1"."__r0")."name") end) as "__j", "_1"."__o0" from (select "_1"."id", "_2"."name" as "__o0", "_2" as "__r0" from "public"."gql_article" as "_1" left join "public"."gql_author" as "_2" on "_2"."id" = "_1"."author_id" where ("_1"."title" ilike $1::text) order by "__o0" desc nulls first limit $2::bigint) as "_1") as "_3")::text as "json"",
        },
      ]
    `);
  });

  it("a role's permission filter with a session variable, ANDed with the caller's where, and its limit", () => {
    expect(sql(`{ gql_article(where: {id: {_gt: 1}}, limit: 500) { title } }`, user(7))).toMatchInlineSnapshot(`
      [
        {
          "field": "gql_article",
          "params": [
            "true",
            "7",
            "1",
            "100",
          ],
          "sql": "select (select coalesce(json_agg("_2"."__j"), '[]'::json) from (select json_build_object('title', "_1"."title") as "__j" from (select "_1"."title" from "public"."gql_article" as "_1" where ((("_1"."published" = $1::boolean) or ("_1"."author_id" = $2::integer)) and ("_1"."id" > $3::integer)) limit $4::bigint) as "_1") as "_2")::text as "json"",
        },
      ]
    `);
  });

  it("aggregate with nodes and an array relationship filter", () => {
    expect(sql(`{ gql_author_aggregate(where: {articles: {published: {_eq: true}}}) { aggregate { count max { id } } nodes { name } } }`)).toMatchInlineSnapshot(`
      [
        {
          "field": "gql_author_aggregate",
          "params": [
            "true",
          ],
          "sql": "select (select json_build_object('aggregate', json_build_object('count', count(*), 'max', json_build_object('id', max("_3"."id"))), 'nodes', coalesce(json_agg("_3"."__j0"), '[]'::json)) from (select "_1".*, json_build_object('name', "_1"."name") as "__j0" from (select "_1"."name", "_1"."id" from "public"."gql_author" as "_1" where exists (select 1 from "public"."gql_article" as "_2" where "_2"."author_id" = "_1"."id" and ("_2"."published" = $1::boolean))) as "_1") as "_3")::text as "json"",
        },
      ]
    `);
  });

  it("a non-admin aggregate: the row cap bounds nodes only, never the count (the caller's limit bounds both)", () => {
    expect(sql(`{ gql_author_aggregate { aggregate { count } nodes { name } } }`, { roles: ["editor"], isAdmin: false, variables: {} })).toMatchInlineSnapshot(`
      [
        {
          "field": "gql_author_aggregate",
          "params": [
            "1000",
          ],
          "sql": "select (select json_build_object('aggregate', json_build_object('count', count(*)), 'nodes', coalesce(array_to_json((array_agg("_2"."__j0"))[1:$1::int]), '[]'::json)) from (select "_1".*, json_build_object('name', "_1"."name") as "__j0" from (select "_1"."name" from "public"."gql_author" as "_1" where true) as "_1") as "_2")::text as "json"",
        },
      ]
    `);
    expect(sql(`{ gql_author_aggregate(limit: 5) { aggregate { count } } }`, { roles: ["editor"], isAdmin: false, variables: {} })).toMatchInlineSnapshot(`
      [
        {
          "field": "gql_author_aggregate",
          "params": [
            "5",
          ],
          "sql": "select (select json_build_object('aggregate', json_build_object('count', count(*))) from (select from "public"."gql_author" as "_1" where true limit $1::bigint) as "_2")::text as "json"",
        },
      ]
    `);
  });

  it("union of roles: a column only one role grants shows under that role's filter", () => {
    expect(sql(`{ gql_author { name email } }`, user(2, ["user", "editor"]))).toMatchInlineSnapshot(`
      [
        {
          "field": "gql_author",
          "params": [
            "1000",
            "2",
          ],
          "sql": "select (select coalesce(json_agg("_2"."__j"), '[]'::json) from (select json_build_object('name', "_1"."name", 'email', case when ("_1"."id" = $2::integer) then "_1"."email" end) as "__j" from (select "_1"."name", "_1"."id", "_1"."email" from "public"."gql_author" as "_1" where true limit $1::bigint) as "_1") as "_2")::text as "json"",
        },
      ]
    `);
  });

  it("a relationship filter through the row joined for order_by: tested on that row, and the object built from it", () => {
    // one lookup of the author (the order join) serves the filter, the sort and the author field; the permission stays in the join
    expect(sql(`{ gql_article(where: {author: {name: {_eq: "Ada"}}}, order_by: {author: {name: asc}}) { title author { name } } }`, user(2))).toMatchInlineSnapshot(`
      [
        {
          "field": "gql_article",
          "params": [
            "2",
            "2",
            "Ada",
            "true",
            "2",
            "100",
          ],
          "sql": "select (select coalesce(json_agg("_3"."__j" order by "_3"."__o0" asc nulls last), '[]'::json) from (select json_build_object('title', "_1"."title", 'author', case when ("_1"."__r0")."id" is not null then json_build_object('name', ("_1"."__r0")."name") end) as "__j", "_1"."__o0" from (select "_1"."title", "_2"."name" as "__o0", "_2" as "__r0" from "public"."gql_article" as "_1" left join "public"."gql_author" as "_2" on "_2"."id" = "_1"."author_id" and ("_2"."id" = $1::integer) where (("_1"."published" = $4::boolean) or ("_1"."author_id" = $5::integer)) and ("_2"."id" is not null and (("_2"."id" = $2::integer) and ("_2"."name" = $3::text))) order by "__o0" asc nulls last limit $6::bigint) as "_1") as "_3")::text as "json"",
        },
      ]
    `);
  });

  it("on a PostgreSQL server a root list's ordered, limited rows are a materialized CTE", () => {
    const ctx = (t.engine as unknown as { contextFor(s: Session): Parameters<typeof explain>[0] }).contextFor(user(2));
    const onServer = { ...ctx, db: { ...ctx.db, kind: "postgres" } } as Parameters<typeof explain>[0];
    expect(explain(onServer, { query: `{ gql_article(order_by: {id: desc}, limit: 2) { title } gql_article_aggregate { aggregate { count } } }` })).toMatchInlineSnapshot(`
      [
        {
          "field": "gql_article",
          "params": [
            "true",
            "2",
            "2",
          ],
          "sql": "with "_c1" as materialized (select "_1"."title", "_1"."id" as "__o0" from "public"."gql_article" as "_1" where (("_1"."published" = $1::boolean) or ("_1"."author_id" = $2::integer)) order by "__o0" desc nulls first limit $3::bigint) select (select coalesce(json_agg("_2"."__j" order by "_2"."__o0" desc nulls first), '[]'::json) from (select json_build_object('title', "_1"."title") as "__j", "_1"."__o0" from "_c1" as "_1") as "_2")::text as "json"",
        },
        {
          "field": "gql_article_aggregate",
          "params": [
            "true",
            "2",
          ],
          "sql": "select (select json_build_object('aggregate', json_build_object('count', count(*))) from (select from "public"."gql_article" as "_1" where (("_1"."published" = $1::boolean) or ("_1"."author_id" = $2::integer))) as "_2")::text as "json"",
        },
      ]
    `);
  });

  it("c = v or c <> v (a union of two roles' rules) is 'c is not null', and nothing at all on a column that cannot be null", () => {
    const where = (col: string) => sql(`query($v: Int) { gql_article(where: {_or: [{${col}: {_eq: 1}}, {${col}: {_neq: 1}}, {id: {_eq: $v}}]}) { id } }`, admin, { v: 2 })[0].sql;
    expect(where("author_id")).toContain(`where (("_1"."author_id" is not null) or ("_1"."id" = $1::integer))`);
    expect(where("views")).not.toMatch(/"views"/);
    const plain = sql(`{ gql_article(where: {_or: [{author_id: {_eq: 1}}, {author_id: {_neq: 2}}]}) { id } }`)[0].sql;
    expect(plain).toContain(`("_1"."author_id" = $1::integer) or ("_1"."author_id" <> $2::integer)`);
  });

  it("insert with a preset and a check", () => {
    expect(sql(`mutation { insert_gql_article_one(object: {title: "x"}) { id } }`, user(3))).toMatchInlineSnapshot(`
      [
        {
          "field": "insert_gql_article_one",
          "params": [
            "x",
            "3",
            "true",
            "3",
            "3",
          ],
          "sql": "with "_m" as (insert into "public"."gql_article" as "_i" ("title", "author_id") values ($1::text, $2::integer) returning *) select ((select json_build_object('id', "_1"."id") from "_m" as "_1" where (("_1"."published" = $3::boolean) or ("_1"."author_id" = $4::integer)) limit 1))::text as "json", (select count(*) from "_m" as "_2" where not coalesce(("_2"."author_id" = $5::integer), false))::int as "failed", (select count(*) from "_m")::int as "affected"",
        },
      ]
    `);
  });

  it("update with _set and _inc", () => {
    expect(sql(`mutation { update_gql_article(where: {id: {_eq: 1}}, _set: {title: "y"}, _inc: {views: 2}) { affected_rows } }`)).toMatchInlineSnapshot(`
      [
        {
          "field": "update_gql_article",
          "params": [
            "y",
            "2",
            "1",
          ],
          "sql": "with "_m" as (update "public"."gql_article" as "_u" set "title" = $1::text, "views" = "_u"."views" + $2::integer where ("_u"."id" = $3::integer) returning "_u".*) select (json_build_object('affected_rows', (select count(*) from "_m")))::text as "json", 0 as "failed", (select count(*) from "_m")::int as "affected"",
        },
      ]
    `);
  });
});
