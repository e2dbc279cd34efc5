/**
 * The rest of Hasura's mutation and permission surface (issue 34), as Hasura's graphql_mutation insert/permissions,
 * insert/nested, insert/onconflict and delete/permissions fixtures and its docs describe it: column presets, delete
 * permissions through relationships, on_conflict with `where` and under a role, nested inserts (one statement),
 * custom root field and column names on every root field, and `_cast` of jsonb. Real server wiring, each lane.
 */
import { describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { serverWithSetup } from "./server.ts";

const SETUP_SQL = `
  create table author (id serial primary key, name text unique, bio text, is_registered boolean not null default false);
  create table article (id serial primary key, title text, content text, author_id integer references author(id), is_published boolean not null default false);
  create table resident (id serial primary key, name text not null unique, age integer not null, is_user boolean not null default false);
  create table blog (id serial primary key, title text not null, content text, author_id integer references author(id), last_updated timestamptz, updated_by integer references author(id));
  create table person (id serial primary key, details jsonb);
  create table book (book_id serial primary key, book_title text not null, pages integer not null);
  create table chapter (id serial primary key, book_id integer not null references book(book_id), name text not null);
  insert into author (name) values ('Author 1'), ('Author 2');
  insert into article (title, content, author_id) values ('Article 1', 'Sample 1', 1), ('Article 2', 'Sample 2', 1), ('Article 3', 'Sample 3', 2);
  insert into resident (id, name, age) values (5, 'Resident 5', 21), (6, 'Resident 6', 22);
  insert into blog (id, title, author_id) values (1, 'first blog', 1), (2, 'second blog', 2);
  insert into person (details) values ('{"name": "Clarke", "city": "Arkadia"}'), ('"Bellamy"'), ('12');
  insert into book (book_title, pages) values ('Dune', 412), ('Emma', 320);`;

const perm = (type: string, table: string, role: string, permission: unknown) => ({ type: `create_${type}_permission`, args: { table, role, permission } });

for (const lane of databaseLanes()) {
  describe(`${lane}: Hasura's mutation and permission surface`, () => {
    const h = serverWithSetup(lane, {
      type: "bulk",
      args: [
        { type: "run_sql", args: { sql: SETUP_SQL } },
        ...["author", "article", "resident", "blog", "person"].map((name) => ({ type: "track_table", args: { schema: "public", name } })),
        {
          type: "track_table",
          version: 2,
          args: {
            table: "book",
            configuration: {
              custom_root_fields: { select: "Books", select_by_pk: "Book", select_aggregate: "BookStats", insert: "addBooks", insert_one: "addBook", update: "editBooks", update_by_pk: "editBook", delete: "removeBooks", delete_by_pk: "removeBook" },
              column_config: { book_id: { custom_name: "id" }, book_title: { custom_name: "title" } },
            },
          },
        },
        { type: "track_table", version: 2, args: { table: "chapter", configuration: { custom_root_fields: { insert: "addChapters" }, column_config: { book_id: { custom_name: "bookId" } } } } },
        { type: "create_array_relationship", args: { table: "book", name: "chapters", using: { foreign_key_constraint_on: { table: "chapter", column: "book_id" } } } },
        { type: "create_object_relationship", args: { table: "chapter", name: "book", using: { foreign_key_constraint_on: "book_id" } } },
        { type: "create_object_relationship", args: { table: "article", name: "author", using: { foreign_key_constraint_on: "author_id" } } },
        { type: "create_array_relationship", args: { table: "author", name: "articles", using: { foreign_key_constraint_on: { table: "article", column: "author_id" } } } },
        // insert permissions without `columns`: every column (Hasura's old form, still accepted)
        perm("insert", "resident", "user", { check: { id: "X-Hasura-Resident-Id" }, set: { name: "X-Hasura-Resident-Name", is_user: true } }),
        perm("select", "resident", "user", { columns: ["id", "name", "age", "is_user"], filter: { id: "X-Hasura-Resident-Id" } }),
        perm("insert", "resident", "resident", { check: { id: "X-Hasura-Resident-Id" } }),
        perm("update", "resident", "resident", { columns: "*", filter: { id: "X-Hasura-Resident-Id" }, check: { age: { _lt: 100 } } }),
        perm("select", "resident", "resident", { columns: "*", filter: {} }),
        perm("select", "blog", "user", { columns: "*", filter: {} }),
        perm("insert", "blog", "user", { check: {} }),
        perm("update", "blog", "user", { columns: ["title", "content"], filter: {}, set: { last_updated: "2026-01-02T03:04:05Z", updated_by: "X-Hasura-User-Id" } }),
        // the user writes authors and articles of their own; deletes articles of their own, found through the relationship
        perm("select", "author", "user", { columns: ["id", "name", "is_registered"], filter: {} }),
        perm("insert", "author", "user", { check: { id: "X-Hasura-User-Id", is_registered: false } }),
        perm("select", "article", "user", { columns: ["id", "title", "content", "author_id"], filter: { $or: [{ author_id: "X-Hasura-User-Id" }, { is_published: true }] } }),
        perm("insert", "article", "user", { columns: ["title", "content"], check: { author: { id: "X-Hasura-User-Id" } } }),
        perm("delete", "article", "user", { filter: { author: { id: { _eq: "X-Hasura-User-Id" } } } }),
        perm("select", "person", "reader", { columns: ["id"], filter: { details: { _cast: { String: { _ilike: "X-Hasura-Pattern" } } } } }),
      ],
    });
    const { gql } = h;
    const rows = async <T,>(sql: string) => (await h.db.query<T>(sql)).rows;

    it("presets: from a session variable and static, a permission without columns grants the others (resident_user, blog_on_conflict_update_preset)", async () => {
      const user = { "x-hasura-role": "user", "x-hasura-resident-id": "7", "x-hasura-resident-name": "Resident 7" };
      const added = await gql("mutation { insert_resident(objects: [{id: 7, age: 30}]) { affected_rows returning { id name age is_user } } }", user);
      expect(added.body).toEqual({ data: { insert_resident: { affected_rows: 1, returning: [{ id: 7, name: "Resident 7", age: 30, is_user: true }] } } });
      // a preset column is no input of the role
      const named = await gql('mutation { insert_resident(objects: [{id: 7, age: 30, name: "X"}]) { affected_rows } }', user);
      expect(named.body).toMatchObject({ errors: [{ message: "field 'name' not found in type: 'resident_insert_input'", extensions: { code: "validation-failed" } }] });

      const author2 = { "x-hasura-role": "user", "x-hasura-user-id": "2" };
      const edited = await gql('mutation { update_blog(where: {id: {_eq: 1}}, _set: {title: "First blog"}) { returning { id title updated_by last_updated } } }', author2);
      expect(edited.body).toEqual({ data: { update_blog: { returning: [{ id: 1, title: "First blog", updated_by: 2, last_updated: "2026-01-02T03:04:05+00:00" }] } } });
      // an upsert is an update: the update permission's presets are written too
      const upserted = await gql(
        'mutation { insert_blog(objects: [{id: 2, title: "second blog", content: "This content modified by Author 1"}], on_conflict: {constraint: blog_pkey, update_columns: [content]}) { affected_rows returning { id title content author_id updated_by } } }',
        { "x-hasura-role": "user", "x-hasura-user-id": "1" },
      );
      expect(upserted.body).toEqual({ data: { insert_blog: { affected_rows: 1, returning: [{ id: 2, title: "second blog", content: "This content modified by Author 1", author_id: 2, updated_by: 1 }] } } });
    });

    it("a delete permission through a relationship and a session variable: the author deletes their own articles, not others' (author_can_delete_his_articles)", async () => {
      const author1 = { "x-hasura-role": "user", "x-hasura-user-id": "1" };
      const others = await gql("mutation { delete_article(where: {id: {_eq: 3}}) { affected_rows } }", author1);
      expect(others.body).toEqual({ data: { delete_article: { affected_rows: 0 } } });
      const own = await gql("mutation { delete_article(where: {id: {_eq: 1}}) { affected_rows returning { id title content author_id } } }", author1);
      expect(own.body).toEqual({ data: { delete_article: { affected_rows: 1, returning: [{ id: 1, title: "Article 1", content: "Sample 1", author_id: 1 }] } } });
      expect(await rows<{ id: number }>("select id from article order by id")).toEqual([{ id: 2 }, { id: 3 }]);
      const missing = await gql("mutation { delete_article(where: {}) { affected_rows } }", { "x-hasura-role": "user" });
      expect(missing.body).toMatchObject({ errors: [{ message: 'missing session variables: "x-hasura-user-id"', extensions: { code: "not-found" } }] });
    });

    it("on_conflict: `where` picks the rows updated; under a role its update permission decides (resident_on_conflict_where, resident_5_modifies_resident_6_upsert)", async () => {
      const upsert = (age: number, where: string, headers: Record<string, string> = {}) =>
        gql(`mutation { insert_resident(objects: [{id: 6, name: "Resident 6", age: ${age}}], on_conflict: {constraint: resident_pkey, update_columns: [age]${where}}) { affected_rows returning { id age } } }`, headers);
      expect((await upsert(20, ", where: {age: {_lt: 20}}")).body).toEqual({ data: { insert_resident: { affected_rows: 0, returning: [] } } });
      expect((await upsert(23, ", where: {age: {_lt: 23}}")).body).toEqual({ data: { insert_resident: { affected_rows: 1, returning: [{ id: 6, age: 23 }] } } });
      // resident 5 may not update resident 6: nothing happens
      expect((await upsert(24, "", { "x-hasura-role": "resident", "x-hasura-resident-id": "5" })).body).toEqual({ data: { insert_resident: { affected_rows: 0, returning: [] } } });
      // resident 6 may, within the update permission's check
      const self = { "x-hasura-role": "resident", "x-hasura-resident-id": "6" };
      expect((await upsert(24, "", self)).body).toEqual({ data: { insert_resident: { affected_rows: 1, returning: [{ id: 6, age: 24 }] } } });
      expect((await upsert(120, "", self)).body).toEqual({
        errors: [{ message: "check constraint of an insert/update permission has failed", extensions: { path: "$.selectionSet.insert_resident.args.objects", code: "permission-error" } }],
      });
      expect(await rows<{ age: number }>("select age from resident where id = 6")).toEqual([{ age: 24 }]);
    });

    it("nested inserts through array and object relationships, empty and null data, on_conflict inside, returning the nested rows", async () => {
      const made = await gql(`mutation {
        insert_author(objects: [
          {name: "Author 3", articles: {data: [{title: "Article 4", content: "c4"}, {title: "Article 5", content: "c5"}]}},
          {name: "Author 4", articles: {data: []}},
          {name: "Author 5", articles: null}
        ]) { affected_rows returning { name articles(order_by: {title: asc}) { title author { name } } } }
      }`);
      expect(made.body).toEqual({
        data: {
          insert_author: {
            affected_rows: 5,
            returning: [
              { name: "Author 3", articles: [{ title: "Article 4", author: { name: "Author 3" } }, { title: "Article 5", author: { name: "Author 3" } }] },
              { name: "Author 4", articles: [] },
              { name: "Author 5", articles: [] },
            ],
          },
        },
      });
      const upserted = await gql(`mutation {
        insert_article_one(object: {title: "Article 6", author: {data: {name: "Author 2", bio: "new"}, on_conflict: {constraint: author_name_key, update_columns: [bio]}}}) { title author { id name bio } }
      }`);
      expect(upserted.body).toEqual({ data: { insert_article_one: { title: "Article 6", author: { id: 2, name: "Author 2", bio: "new" } } } });
      // an upsert that writes nothing leaves no row for the nested rows: Hasura refuses, and nothing is written
      const before = await rows<{ n: number }>("select count(*)::int as n from article");
      const nothing = await gql('mutation { insert_author(objects: [{name: "Author 1", articles: {data: [{title: "x"}]}}], on_conflict: {constraint: author_name_key, update_columns: []}) { affected_rows } }');
      expect(nothing.body).toEqual({
        errors: [{ message: 'cannot proceed to insert array relations since insert to table "author" affects zero rows', extensions: { path: "$.selectionSet.insert_author.args.objects", code: "not-supported" } }],
      });
      expect(await rows<{ n: number }>("select count(*)::int as n from article")).toEqual(before);
    });

    it("a nested insert meets each table's permission; a check through a relationship sees the row written with it", async () => {
      const user = { "x-hasura-role": "user", "x-hasura-user-id": "40" };
      const own = await gql('mutation { insert_author_one(object: {id: 40, name: "Author 40", articles: {data: [{title: "Mine"}]}}) { id articles { title author_id } } }', user);
      expect(own.body).toEqual({ data: { insert_author_one: { id: 40, articles: [{ title: "Mine", author_id: 40 }] } } });
      // the article's check (its author is the user) holds for an author written by the same statement
      const viaObject = await gql('mutation { insert_article(objects: [{title: "Theirs", author: {data: {id: 42, name: "Author 42"}}}]) { affected_rows returning { title author { id } } } }', { "x-hasura-role": "user", "x-hasura-user-id": "42" });
      expect(viaObject.body).toEqual({ data: { insert_article: { affected_rows: 2, returning: [{ title: "Theirs", author: { id: 42 } }] } } });
      const other = await gql('mutation { insert_author(objects: [{id: 41, name: "Author 41", articles: {data: [{title: "Not mine"}]}}]) { affected_rows } }', user);
      expect(other.body).toEqual({
        errors: [{ message: "check constraint of an insert/update permission has failed", extensions: { path: "$.selectionSet.insert_author.args.objects", code: "permission-error" } }],
      });
      expect(await rows<{ n: number }>("select count(*)::int as n from author where id = 41")).toEqual([{ n: 0 }]);
      expect(await rows<{ title: string }>("select title from article where author_id = 40")).toEqual([{ title: "Mine" }]);
    });

    it("custom root field and column names on every root field, aggregates included", async () => {
      const read = await gql(`query {
        Books(order_by: {title: asc}, where: {pages: {_gt: 300}}) { id title }
        Book(id: 1) { title }
        BookStats { aggregate { count max { title pages } } nodes { title } }
      }`);
      expect(read.body).toEqual({
        data: {
          Books: [{ id: 1, title: "Dune" }, { id: 2, title: "Emma" }],
          Book: { title: "Dune" },
          BookStats: { aggregate: { count: 2, max: { title: "Emma", pages: 412 } }, nodes: [{ title: "Dune" }, { title: "Emma" }] },
        },
      });
      const written = await gql(`mutation {
        addBooks(objects: [{title: "Ulysses", pages: 730}]) { affected_rows returning { id title } }
        addBook(object: {id: 10, title: "Persuasion", pages: 249}, on_conflict: {constraint: book_pkey, update_columns: [title]}) { title }
        editBooks(where: {title: {_eq: "Emma"}}, _inc: {pages: 1}) { returning { title pages } }
        editBook(pk_columns: {id: 1}, _set: {title: "Dune Messiah"}) { id title }
        removeBook(id: 10) { title }
        removeBooks(where: {title: {_eq: "Ulysses"}}) { affected_rows }
      }`);
      expect(written.body).toEqual({
        data: {
          addBooks: { affected_rows: 1, returning: [{ id: 3, title: "Ulysses" }] },
          addBook: { title: "Persuasion" },
          editBooks: { returning: [{ title: "Emma", pages: 321 }] },
          editBook: { id: 1, title: "Dune Messiah" },
          removeBook: { title: "Persuasion" },
          removeBooks: { affected_rows: 1 },
        },
      });
      // nested inserts through relationships whose columns have custom names (custom_schema/insert_article_author)
      const nested = await gql(`mutation {
        addBook(object: {title: "Middlemarch", pages: 880, chapters: {data: [{name: "Miss Brooke"}]}}) { title chapters { name bookId } }
        addChapters(objects: [{name: "Prelude", book: {data: {id: 20, title: "Mansfield Park", pages: 507}}}]) { affected_rows returning { bookId book { id title } } }
      }`);
      expect(nested.body).toEqual({
        data: {
          addBook: { title: "Middlemarch", chapters: [{ name: "Miss Brooke", bookId: 4 }] },
          addChapters: { affected_rows: 2, returning: [{ bookId: 20, book: { id: 20, title: "Mansfield Park" } }] },
        },
      });
      // the default names are gone
      expect((await gql("query { book { book_id } }")).body).toMatchObject({ errors: [{ message: "field 'book' not found in type: 'query_root'", extensions: { code: "validation-failed" } }] });
    });

    it("_cast: a jsonb column compared as its text, in a request and in a permission", async () => {
      const asText = await gql('query { person(order_by: {id: asc}, where: {details: {_cast: {String: {_ilike: "%arkadia%"}}}}) { id } number: person(where: {details: {_cast: {String: {_eq: "12"}}}}) { id } }');
      expect(asText.body).toEqual({ data: { person: [{ id: 1 }], number: [{ id: 3 }] } });
      const reader = await gql("query { person(order_by: {id: asc}) { id } }", { "x-hasura-role": "reader", "x-hasura-pattern": "%bell%" });
      expect(reader.body).toEqual({ data: { person: [{ id: 2 }] } });
    });
  });
}
