/**
 * Computed fields as Hasura's v1/computed_fields fixtures and docs describe them: add/drop with their refusals, per-role
 * grants, selection with arguments and the session, filters and ordering, and fields returning a table's rows.
 * Real server wiring, each database lane.
 */
import { describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { serverWithSetup } from "./server.ts";

const SETUP_SQL = `
  create table author (id serial primary key, first_name text not null, last_name text);
  insert into author (first_name, last_name) values ('Roger', 'Chris'), ('Daniel', null);
  create table article (id serial primary key, title text not null, content text, author_id integer not null references author(id));
  insert into article (title, content, author_id) values
    ('Article 1', 'Content for Article 1', 1), ('Article 2', 'Content for Article 2', 2), ('Article 3', 'Content for Article 3', 2);
  create function fetch_articles(search text, author_row author) returns setof article as $$
    select * from article where (title ilike ('%' || search || '%') or content ilike ('%' || search || '%')) and author_id = author_row.id
  $$ language sql stable;
  create function fetch_articles_volatile(search text, author_row author) returns setof article as $$
    select * from article where author_id = author_row.id
  $$ language sql volatile;
  create function full_name(author) returns text as $$
    select case when $1.last_name is null then $1.first_name else $1.first_name || ' ' || $1.last_name end
  $$ language sql stable;
  create function hello_world() returns text as $$ select 'Hello, World!'::text $$ language sql stable;
  create function test_session(author_row author, key text, session json) returns text as $$ select $3->>$2 $$ language sql stable;
  create function all_articles(author_row author) returns setof article as $$ select * from article where author_id = author_row.id $$ language sql stable;
  create function articles_by(author_row author) returns setof article as $$ select * from article where author_id = author_row.id $$ language sql stable;
  create function article_count(author_row author, minimum integer default 0) returns integer as $$
    select count(*)::int from article where author_id = author_row.id having count(*) >= minimum
  $$ language sql stable;`;

for (const lane of databaseLanes()) {
  describe(`${lane}: computed fields`, () => {
    const { q, gql } = serverWithSetup(lane, {
      type: "bulk",
      args: [
        { type: "run_sql", args: { sql: SETUP_SQL } },
        { type: "track_table", args: { schema: "public", name: "author" } },
        { type: "track_table", args: { schema: "public", name: "article" } },
      ],
    });
    const add = (name: string, definition: Record<string, unknown>, table = "author") => q({ type: "add_computed_field", args: { table, name, definition } });

    it("refuses what Hasura refuses, with its messages (add_computed_field_errors)", async () => {
      expect(await add("full_name", { function: "full_name" }, "random")).toEqual({ status: 400, body: { path: "$.args.table", error: 'table "random" does not exist', code: "not-exists" } });
      expect(await add("first_name", { function: "full_name" })).toMatchObject({ status: 400, body: { error: "field definition conflicts with postgres column", code: "constraint-violation" } });
      expect(await add("full_name", { function: "random_function" })).toMatchObject({
        status: 400,
        body: { path: "$.args", error: 'in table "author": in computed field "full_name": no such function exists in postgres : "random_function"', code: "constraint-violation" },
      });
      expect(await add("full_name", { function: "full_name", table_argument: "random" })).toMatchObject({
        status: 400,
        body: { error: 'in table "author": in computed field "full_name": the computed field "full_name" cannot be added to table "author" because "random" is not an input argument of "full_name" function' },
      });
      expect(await add("get_articles", { function: "fetch_articles_volatile", table_argument: "random" })).toMatchObject({
        status: 400,
        body: {
          error:
            'in table "author": in computed field "get_articles": the computed field "get_articles" cannot be added to table "author" for the following reasons:\n' +
            '  • the function "fetch_articles_volatile" is of type VOLATILE; cannot be added as a computed field\n' +
            '  • "random" is not an input argument of "fetch_articles_volatile" function\n',
        },
      });
      expect(await add("hello_world", { function: "hello_world" })).toMatchObject({
        status: 400,
        body: { error: 'in table "author": in computed field "hello_world": the computed field "hello_world" cannot be added to table "author" because the function "hello_world" has no input arguments' },
      });
      expect(await add("get_articles", { function: "fetch_articles" })).toMatchObject({
        status: 400,
        body: {
          error:
            'in table "author": in computed field "get_articles": the computed field "get_articles" cannot be added to table "author" for the following reasons:\n' +
            '  • first argument of the function "fetch_articles" is not COMPOSITE type\n' +
            '  • first argument of the function "fetch_articles" of type "pg_catalog.text" is not the table to which the computed field is being added\n',
          code: "constraint-violation",
        },
      });
      // nothing was added
      const md = (await q({ type: "export_metadata", args: {} })).body as { sources: { tables: { computed_fields?: unknown[] }[] }[] };
      expect(md.sources[0].tables.every((t) => !t.computed_fields)).toBe(true);
    });

    it("adds and drops, and passes the session (add_and_drop)", async () => {
      expect(await add("get_articles", { function: "fetch_articles", table_argument: "author_row" })).toEqual({ status: 200, body: { message: "success" } });
      expect(await q({ type: "drop_computed_field", args: { table: "random", name: "get_articles" } })).toEqual({
        status: 400,
        body: { path: "$.args.table", error: 'table "random" does not exist in source: default', code: "not-exists" },
      });
      expect(await q({ type: "drop_computed_field", args: { table: "author", name: "random" } })).toEqual({
        status: 400,
        body: { path: "$.args.name", error: 'computed field "random" does not exist', code: "not-exists" },
      });
      expect(await q({ type: "drop_computed_field", args: { table: "author", name: "get_articles" } })).toEqual({ status: 200, body: { message: "success" } });
      expect(await add("test_session", { function: "test_session", session_argument: "session" })).toEqual({ status: 200, body: { message: "success" } });
      expect((await gql('query { author_by_pk(id: 1) { test_session(args: {key: "x-hasura-role"}) } }')).body).toEqual({ data: { author_by_pk: { test_session: "admin" } } });
      expect((await q({ type: "drop_computed_field", args: { table: "author", name: "test_session" } })).status).toBe(200);
    });

    it("a scalar field is selected, filtered and ordered by; a table-valued one takes args, where, order_by and limit", async () => {
      expect((await add("full_name", { function: "full_name" })).status).toBe(200);
      expect((await add("get_articles", { function: "fetch_articles", table_argument: "author_row" })).status).toBe(200);
      expect((await add("article_count", { function: "article_count", table_argument: "author_row" })).status).toBe(200);
      const res = await gql(`query {
        author(order_by: {full_name: desc}) { id full_name article_count few: article_count(args: {minimum: 2}) }
        filtered: author(where: {full_name: {_ilike: "%chris"}}) { id }
        byArticles: author(where: {article_count: {_gte: 2}}) { id }
        articles: author(order_by: {id: asc}) {
          get_articles(args: {search: "Article"}, where: {id: {_neq: 2}}, order_by: {id: desc}, limit: 1) { id title }
        }
      }`);
      expect(res.body).toEqual({
        data: {
          author: [
            { id: 1, full_name: "Roger Chris", article_count: 1, few: null },
            { id: 2, full_name: "Daniel", article_count: 2, few: 2 },
          ],
          filtered: [{ id: 1 }],
          byArticles: [{ id: 2 }],
          articles: [{ get_articles: [{ id: 1, title: "Article 1" }] }, { get_articles: [{ id: 3, title: "Article 3" }] }],
        },
      });
      const written = await gql(`mutation {
        insert_author_one(object: {first_name: "Ann", last_name: "Lee"}) { full_name article_count }
        update_author(where: {first_name: {_eq: "Ann"}}, _set: {last_name: "Ng"}) { returning { full_name } }
        delete_author(where: {first_name: {_eq: "Ann"}}) { returning { full_name } }
      }`);
      expect(written.body).toEqual({
        data: { insert_author_one: { full_name: "Ann Lee", article_count: 0 }, update_author: { returning: [{ full_name: "Ann Ng" }] }, delete_author: { returning: [{ full_name: "Ann Ng" }] } },
      });
      // a field whose function needs an argument cannot be used without it
      expect((await gql("query { author { get_articles { id } } }")).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
    });

    it("a table-valued field has its aggregate, as a field and in order_by (author_order_by_get_articles_aggregate)", async () => {
      expect((await add("articles_by", { function: "articles_by" })).status).toBe(200);
      const res = await gql(`query {
        author(order_by: {articles_by_aggregate: {count: desc}}) { id articles_by { id title } }
        byMax: author(order_by: {articles_by_aggregate: {max: {id: asc}}}) { id }
        counts: author(order_by: {id: asc}) { articles_by_aggregate(where: {id: {_gt: 1}}) { aggregate { count max { id } } nodes { title } } }
      }`);
      expect(res.body).toEqual({
        data: {
          author: [
            { id: 2, articles_by: [{ id: 2, title: "Article 2" }, { id: 3, title: "Article 3" }] },
            { id: 1, articles_by: [{ id: 1, title: "Article 1" }] },
          ],
          byMax: [{ id: 1 }, { id: 2 }],
          counts: [
            { articles_by_aggregate: { aggregate: { count: 0, max: { id: null } }, nodes: [] } },
            { articles_by_aggregate: { aggregate: { count: 2, max: { id: 3 } }, nodes: [{ title: "Article 2" }, { title: "Article 3" }] } },
          ],
        },
      });
    });

    it("grants per role (create_permissions); a table-valued field follows its table's permission; a filter may use any", async () => {
      expect(await q({ type: "create_select_permission", args: { table: "author", role: "user", permission: { columns: "*", computed_fields: ["full_name", "random"], filter: {} } } })).toEqual({
        status: 400,
        body: { path: "$.args", error: 'in table "author": in permission for role "user": computed field "random" does not exist', code: "constraint-violation" },
      });
      expect(await q({ type: "create_select_permission", args: { table: "author", role: "user", permission: { columns: "*", computed_fields: ["full_name", "get_articles"], filter: {} } } })).toEqual({
        status: 400,
        body: {
          path: "$.args",
          error: 'in table "author": in permission for role "user": select permissions on computed field "get_articles" are auto-derived from the permissions on its returning table "article" and cannot be specified manually',
          code: "constraint-violation",
        },
      });
      expect((await add("all_articles", { function: "all_articles" })).status).toBe(200);
      expect((await q({ type: "create_select_permission", args: { table: "author", role: "user", permission: { columns: ["id"], computed_fields: ["full_name"], filter: { article_count: { _gte: 2 } } } } })).status).toBe(200);
      const user = { "x-hasura-role": "user" };
      // the filter uses article_count, which the role was not granted: it filters but is not a field
      expect((await gql("query { author { id full_name } }", user)).body).toEqual({ data: { author: [{ id: 2, full_name: "Daniel" }] } });
      expect((await gql("query { author { article_count } }", user)).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
      expect((await gql("query { author(where: {article_count: {_eq: 1}}) { id } }", user)).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
      // no select permission on article: no all_articles
      expect((await gql("query { author { all_articles { id } } }", user)).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
      expect((await q({ type: "create_select_permission", args: { table: "article", role: "user", permission: { columns: ["id", "title"], filter: { title: { _neq: "Article 3" } } } } })).status).toBe(200);
      expect((await gql("query { author { id all_articles { id title } } }", user)).body).toEqual({ data: { author: [{ id: 2, all_articles: [{ id: 2, title: "Article 2" }] }] } });
      expect((await gql('query { author(where: {all_articles: {title: {_eq: "Article 3"}}}) { id } }', user)).body).toEqual({ data: { author: [] } });

      expect(await q({ type: "drop_computed_field", args: { table: "author", name: "full_name" } })).toEqual({
        status: 400,
        body: { path: "$.args", error: "cannot drop due to the following dependent objects : permission author.user.select", code: "dependency-error" },
      });
      expect((await q({ type: "drop_computed_field", args: { table: "author", name: "full_name", cascade: true } })).status).toBe(200);
      expect((await gql("query { author { id } }", user)).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
    });

    it("run_sql may not drop a function a computed field uses, unless cascade (run_sql)", async () => {
      const drop = await q({ type: "run_sql", args: { sql: "drop function all_articles(author)" } });
      expect(drop).toEqual({ status: 400, body: { path: "$.args", error: "cannot drop due to the following dependent objects : computed field author.all_articles", code: "dependency-error" } });
      expect((await gql("query { author(order_by: {id: asc}) { all_articles { id } } }")).body).toEqual({ data: { author: [{ all_articles: [{ id: 1 }] }, { all_articles: [{ id: 2 }, { id: 3 }] }] } });
      const replaced = await q({
        type: "run_sql",
        args: { sql: "create or replace function all_articles(author_row author) returns setof article as $$ select * from article where author_id = author_row.id and id > 2 $$ language sql stable" },
      });
      expect(replaced.status).toBe(200);
      expect((await gql("query { author(order_by: {id: asc}) { all_articles { id } } }")).body).toEqual({ data: { author: [{ all_articles: [] }, { all_articles: [{ id: 3 }] }] } });
      expect((await q({ type: "run_sql", args: { sql: "drop function all_articles(author)", cascade: true } })).status).toBe(200);
      expect((await gql("query { author { all_articles { id } } }")).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
    });
  });
}
