/**
 * Custom column names (`column_config` / `custom_column_names`) as Hasura's set_table_configuration fixtures and docs
 * describe them: requests name a column by its GraphQL name everywhere; metadata (permissions, presets) keeps the
 * column's own name. Real server wiring, each database lane.
 */
import { describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { serverWithSetup } from "./server.ts";

for (const lane of databaseLanes()) {
  describe(`${lane}: custom column names`, () => {
    const { q, gql } = serverWithSetup(lane, {
      type: "bulk",
      args: [
        {
          type: "run_sql",
          args: {
            sql: `create table author (id serial primary key, name text not null, age integer);
                  insert into author (name, age) values ('Clarke', 23), ('Bellamy', null);
                  create table article (id serial primary key, title text not null, content text, author_id integer not null references author(id));
                  insert into article (title, content, author_id) values ('Article 1 title', 'Article 1 content', 1), ('Article 2 title', 'Article 2 content', 2);`,
          },
        },
        { type: "track_table", version: 2, args: { table: "author", configuration: { custom_root_fields: { select: "Authors" }, custom_column_names: { id: "AuthorId" } } } },
        { type: "track_table", version: 2, args: { table: "article", configuration: {} } },
        { type: "create_array_relationship", args: { name: "articles", table: "author", using: { foreign_key_constraint_on: { table: "article", column: "author_id" } } } },
      ],
    });

    it("set_table_configuration renames columns and a root field, and an empty one undoes it (Hasura's set_and_unset)", async () => {
      const set = await q({
        type: "set_table_configuration",
        args: { table: "author", configuration: { custom_root_fields: { select: "Authors", select_by_pk: "Author" }, custom_column_names: { id: "AuthorId", name: "AuthorName", age: "age" } } },
      });
      expect(set).toEqual({ status: 200, body: { message: "success" } });
      expect((await gql("query { Author(AuthorId: 1) { AuthorName } }")).body).toEqual({ data: { Author: { AuthorName: "Clarke" } } });
      // the database's name is no longer a field
      expect((await gql("query { Author(AuthorId: 1) { name } }")).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });

      expect((await q({ type: "set_table_configuration", args: { table: "author", configuration: { custom_root_fields: { select: "Authors" } } } })).status).toBe(200);
      expect((await gql("query { author_by_pk(id: 1) { name } }")).body).toEqual({ data: { author_by_pk: { name: "Clarke" } } });
    });

    it("two columns may swap names (Hasura's column_field_swap)", async () => {
      expect((await q({ type: "set_table_configuration", args: { table: "article", configuration: { custom_root_fields: {}, custom_column_names: { title: "content", content: "title" } } } })).status).toBe(200);
      expect((await gql("query { article(order_by: {id: asc}) { id title content } }")).body).toEqual({
        data: {
          article: [
            { id: 1, title: "Article 1 content", content: "Article 1 title" },
            { id: 2, title: "Article 2 content", content: "Article 2 title" },
          ],
        },
      });
      expect((await q({ type: "set_table_configuration", args: { table: "article", configuration: { custom_root_fields: {}, custom_column_names: {} } } })).status).toBe(200);
      expect((await gql("query { article(order_by: {id: asc}) { title } }")).body).toEqual({ data: { article: [{ title: "Article 1 title" }, { title: "Article 2 title" }] } });
    });

    it("set_table_customization with the deprecated custom_column_names, then column_config", async () => {
      expect((await q({ type: "set_table_customization", args: { table: "author", configuration: { custom_column_names: { id: "AuthorId", name: "AuthorName", age: "age" } } } })).status).toBe(200);
      expect((await gql("query { author_by_pk(AuthorId: 1) { AuthorName } }")).body).toEqual({ data: { author_by_pk: { AuthorName: "Clarke" } } });
      expect((await q({ type: "set_table_customization", args: { table: "author", configuration: { column_config: { name: { custom_name: "fullName" } } } } })).status).toBe(200);
      expect((await gql("query { author_by_pk(id: 1) { fullName } }")).body).toEqual({ data: { author_by_pk: { fullName: "Clarke" } } });
      expect((await q({ type: "set_table_customization", args: { table: "author", configuration: {} } })).status).toBe(200);
      expect((await gql("query { author_by_pk(id: 1) { name } }")).body).toEqual({ data: { author_by_pk: { name: "Clarke" } } });
    });

    it("refuses a custom name that conflicts with a relationship, two columns of one name, or a column that does not exist; nothing changes", async () => {
      const clash = await q({ type: "set_table_configuration", args: { table: "author", configuration: { custom_root_fields: {}, custom_column_names: { name: "articles", age: "articles_aggregate" } } } });
      expect(clash.status).toBe(400);
      expect(JSON.stringify(clash.body)).toContain('field definition conflicts with custom field name for postgres column \\"name\\"');
      const twice = await q({ type: "set_table_customization", args: { table: "author", configuration: { custom_column_names: { name: "age" } } } });
      expect(twice.status).toBe(400);
      expect(JSON.stringify(twice.body)).toContain("the following custom column names conflict with existing column names: age");
      const missing = await q({ type: "set_table_customization", args: { table: "author", configuration: { column_config: { nickname: { custom_name: "nick" } } } } });
      expect(missing.status).toBe(400);
      expect(JSON.stringify(missing.body)).toContain("the following columns referenced in column_config do not exist: nickname");
      const invalid = await q({ type: "set_table_customization", args: { table: "author", configuration: { column_config: { name: { custom_name: "full name" } } } } });
      expect(invalid.status).toBe(400);
      expect((await gql("query { author_by_pk(id: 1) { name } }")).body).toEqual({ data: { author_by_pk: { name: "Clarke" } } });
    });

    it("where, order_by, distinct_on, aggregates, relationships and every mutation input use the custom names", async () => {
      const config = { custom_column_names: { id: "authorId", name: "fullName", age: "yearsOld" } };
      expect((await q({ type: "set_table_customization", args: { table: "author", configuration: config } })).status).toBe(200);
      const read = await gql(`query {
        author(where: {fullName: {_like: "%l%"}, yearsOld: {_is_null: false}}, order_by: {yearsOld: desc}) { authorId fullName yearsOld articles { title } }
        author_aggregate { aggregate { count(columns: [yearsOld]) max { yearsOld fullName } } }
        distinct: author(distinct_on: [fullName], order_by: {fullName: asc}) { fullName }
        article(where: {author: {fullName: {_eq: "Bellamy"}}}) { title }
      }`);
      // article has no object relationship "author": only the array one from author exists
      expect(read.body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
      const ok = await gql(`query {
        author(where: {fullName: {_like: "%l%"}, yearsOld: {_is_null: false}}, order_by: {yearsOld: desc}) { authorId fullName yearsOld articles { title } }
        author_aggregate { aggregate { count(columns: [yearsOld]) max { yearsOld fullName } } }
        distinct: author(distinct_on: [fullName], order_by: {fullName: asc}) { fullName }
        byRelationship: author(where: {articles: {title: {_eq: "Article 2 title"}}}) { fullName }
      }`);
      expect(ok.body).toEqual({
        data: {
          author: [{ authorId: 1, fullName: "Clarke", yearsOld: 23, articles: [{ title: "Article 1 title" }] }],
          author_aggregate: { aggregate: { count: 1, max: { yearsOld: 23, fullName: "Clarke" } } },
          distinct: [{ fullName: "Bellamy" }, { fullName: "Clarke" }],
          byRelationship: [{ fullName: "Bellamy" }],
        },
      });

      const written = await gql(`mutation {
        insert_author_one(object: {fullName: "Octavia", yearsOld: 17, articles: {data: [{title: "Article 3 title"}]}}) { authorId fullName articles { title } }
      }`);
      expect(written.body).toMatchObject({ data: { insert_author_one: { fullName: "Octavia", articles: [{ title: "Article 3 title" }] } } });
      const id = (written.body as { data: { insert_author_one: { authorId: number } } }).data.insert_author_one.authorId;
      const changed = await gql(`mutation {
        update_author_by_pk(pk_columns: {authorId: ${id}}, _set: {fullName: "Octavia Blake"}, _inc: {yearsOld: 1}) { fullName yearsOld }
        upsert: insert_author(objects: [{authorId: ${id}, fullName: "O. Blake"}], on_conflict: {constraint: author_pkey, update_columns: [fullName]}) { returning { fullName yearsOld } }
      }`);
      expect(changed.body).toEqual({ data: { update_author_by_pk: { fullName: "Octavia Blake", yearsOld: 18 }, upsert: { returning: [{ fullName: "O. Blake", yearsOld: 18 }] } } });
      const wrongName = await gql(`mutation { update_author(where: {authorId: {_eq: ${id}}}, _set: {name: "x"}) { affected_rows } }`);
      expect(wrongName.body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
      const gone = await gql(`mutation {
        delete_article(where: {author_id: {_eq: ${id}}}) { affected_rows }
        delete_author_by_pk(authorId: ${id}) { fullName }
      }`);
      expect(gone.body).toEqual({ data: { delete_article: { affected_rows: 1 }, delete_author_by_pk: { fullName: "O. Blake" } } });
    });

    it("a role's permission names columns as the database does; its requests use the custom names", async () => {
      const perm = await q({
        type: "create_select_permission",
        args: { table: "author", role: "reader", permission: { columns: ["id", "name"], filter: { age: { _is_null: false } } } },
      });
      expect(perm.status).toBe(200);
      const insert = await q({
        type: "create_insert_permission",
        args: { table: "author", role: "reader", permission: { columns: ["name"], check: { name: { _like: "R%" } }, set: { age: "X-Hasura-Age" } } },
      });
      expect(insert.status).toBe(200);
      const headers = { "x-hasura-role": "reader", "x-hasura-age": "30" };
      expect((await gql("query { author(order_by: {authorId: asc}) { authorId fullName } }", headers)).body).toEqual({ data: { author: [{ authorId: 1, fullName: "Clarke" }] } });
      // yearsOld is not among the role's columns: not a field for it
      expect((await gql("query { author { yearsOld } }", headers)).body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
      const added = await gql(`mutation { insert_author_one(object: {fullName: "Raven"}) { fullName } }`, headers);
      expect(added.body).toEqual({ data: { insert_author_one: { fullName: "Raven" } } });
      const refused = await gql(`mutation { insert_author_one(object: {fullName: "Jasper"}) { fullName } }`, headers);
      expect(refused.body).toMatchObject({ errors: [{ extensions: { code: "permission-error" } }] });
      expect((await gql(`{ author(where: {fullName: {_eq: "Raven"}}) { yearsOld } }`)).body).toEqual({ data: { author: [{ yearsOld: 30 }] } });
    });
  });
}
