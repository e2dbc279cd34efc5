/**
 * Insert and update permissions in depth, as Hasura's graphql_mutation insert and update permissions fixtures exercise them: checks
 * through relationships and against the root row (["$", column]), presets from session variables, on_conflict for
 * roles with and without update permission, and the error texts and codes. Real server wiring, each database lane.
 */
import { describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { serverWithSetup } from "./server.ts";

const SETUP_SQL = `
  create table inventory (id serial primary key, name text not null, quantity integer not null);
  insert into inventory (name, quantity) values ('pen', 100), ('ink', 5);
  create table order_cart (id serial primary key, item_id integer not null references inventory(id), quantity integer not null);
  create table resident (id serial primary key, name text not null, age integer not null, is_user boolean not null default false);
  create table author (id serial primary key, name text unique, is_registered boolean not null default false);
  create table article (id serial primary key, title text, author_id integer references author(id));
  insert into author (name) values ('Author 1'), ('Author 2');`;

for (const lane of databaseLanes()) {
  describe(`${lane}: insert and update permissions in depth`, () => {
    const h = serverWithSetup(lane, {
      type: "bulk",
      args: [
        { type: "run_sql", args: { sql: SETUP_SQL } },
        ...["inventory", "order_cart", "resident", "author", "article"].map((name) => ({ type: "track_table", args: { schema: "public", name } })),
        { type: "create_object_relationship", args: { table: "order_cart", name: "item", using: { foreign_key_constraint_on: "item_id" } } },
        { type: "create_object_relationship", args: { table: "article", name: "author", using: { foreign_key_constraint_on: "author_id" } } },
        // an order may not ask for more than the item's stock: the item's quantity against the root row's
        { type: "create_insert_permission", args: { table: "order_cart", role: "user", permission: { columns: ["item_id", "quantity"], check: { item: { quantity: { _cgte: ["$", "quantity"] } } } } } },
        { type: "create_select_permission", args: { table: "order_cart", role: "user", permission: { columns: ["id", "quantity"], filter: {} } } },
        {
          type: "create_insert_permission",
          args: { table: "resident", role: "user", permission: { columns: ["id", "age"], check: { id: "X-Hasura-Resident-Id" }, set: { name: "X-Hasura-Resident-Name", is_user: true } } },
        },
        { type: "create_select_permission", args: { table: "resident", role: "user", permission: { columns: ["id", "name", "age", "is_user"], filter: { id: "X-Hasura-Resident-Id" } } } },
        // only registered authors may get articles
        { type: "create_insert_permission", args: { table: "article", role: "user", permission: { columns: ["title", "author_id"], check: { author: { is_registered: { _eq: true } } } } } },
        { type: "create_select_permission", args: { table: "article", role: "user", permission: { columns: ["id", "title"], filter: {} } } },
        { type: "create_update_permission", args: { table: "article", role: "editor", permission: { columns: ["title"], filter: { author_id: "X-Hasura-User-Id" }, check: { title: { _like: "%!" } } } } },
        { type: "create_select_permission", args: { table: "article", role: "editor", permission: { columns: ["id", "title"], filter: {} } } },
        { type: "create_insert_permission", args: { table: "author", role: "user", permission: { columns: ["id", "name"], check: { id: "X-Hasura-User-Id" } } } },
        { type: "create_select_permission", args: { table: "author", role: "user", permission: { columns: ["id", "name"], filter: { id: "X-Hasura-User-Id" } } } },
      ],
    });
    const { gql } = h;
    const count = async (table: string) => Number((await h.db.query<{ n: string }>(`select count(*)::text as n from ${table}`)).rows[0].n);

    it("a check compares a related row's column with the root row's (column_comparison_across_tables)", async () => {
      const user = { "x-hasura-role": "user" };
      const tooMany = await gql("mutation { insert_order_cart(objects: {item_id: 1, quantity: 106}) { affected_rows } }", user);
      expect(tooMany.body).toEqual({
        errors: [{ message: "check constraint of an insert/update permission has failed", extensions: { path: "$.selectionSet.insert_order_cart.args.objects", code: "permission-error" } }],
      });
      expect(await count("order_cart")).toBe(0);
      expect((await gql("mutation { insert_order_cart(objects: {item_id: 1, quantity: 6}) { affected_rows } }", user)).body).toEqual({ data: { insert_order_cart: { affected_rows: 1 } } });
      // the second item has 5 in stock: 6 is refused there (the comparison is per row, not against the first item)
      expect((await gql("mutation { insert_order_cart(objects: {item_id: 2, quantity: 6}) { affected_rows } }", user)).body).toMatchObject({ errors: [{ extensions: { code: "permission-error" } }] });
    });

    it("presets come from session variables, are not inputs of the role, and the check sees them", async () => {
      const headers = { "x-hasura-role": "user", "x-hasura-resident-id": "5", "x-hasura-resident-name": "Clarke" };
      const ok = await gql("mutation { insert_resident_one(object: {id: 5, age: 25}) { id name age is_user } }", headers);
      expect(ok.body).toEqual({ data: { insert_resident_one: { id: 5, name: "Clarke", age: 25, is_user: true } } });
      // name is preset, not an input of the role
      const named = await gql('mutation { insert_resident_one(object: {id: 6, age: 25, name: "X"}) { id } }', headers);
      expect(named.body).toMatchObject({ errors: [{ message: "field 'name' not found in type: 'resident_insert_input'", extensions: { code: "validation-failed" } }] });
      const other = await gql("mutation { insert_resident_one(object: {id: 6, age: 30}) { id } }", headers);
      expect(other.body).toMatchObject({ errors: [{ message: "check constraint of an insert/update permission has failed", extensions: { code: "permission-error" } }] });
      const missing = await gql("mutation { insert_resident_one(object: {id: 7, age: 30}) { id } }", { "x-hasura-role": "user", "x-hasura-resident-id": "7" });
      expect(missing.body).toMatchObject({ errors: [{ message: 'missing session variables: "x-hasura-resident-name"', extensions: { code: "not-found" } }] });
      expect(await count("resident")).toBe(1);
    });

    it("a check through an object relationship, for each inserted row; nothing written when one fails", async () => {
      const user = { "x-hasura-role": "user" };
      await h.db.exec("update author set is_registered = true where id = 1");
      const mixed = await gql('mutation { insert_article(objects: [{title: "ok", author_id: 1}, {title: "no", author_id: 2}]) { affected_rows } }', user);
      expect(mixed.body).toMatchObject({ errors: [{ extensions: { code: "permission-error" } }] });
      expect(await count("article")).toBe(0);
      expect((await gql('mutation { insert_article(objects: [{title: "ok", author_id: 1}]) { affected_rows } }', user)).body).toEqual({ data: { insert_article: { affected_rows: 1 } } });
    });

    it("on_conflict: a role without update permission may only ignore conflicts", async () => {
      const user = { "x-hasura-role": "user", "x-hasura-user-id": "1" };
      const ignore = await gql('mutation { insert_author(objects: [{id: 1, name: "Author 1"}], on_conflict: {constraint: author_pkey, update_columns: []}) { affected_rows } }', user);
      expect(ignore.body).toEqual({ data: { insert_author: { affected_rows: 0 } } });
      const update = await gql('mutation { insert_author(objects: [{id: 1, name: "New"}], on_conflict: {constraint: author_pkey, update_columns: [name]}) { affected_rows } }', user);
      expect(update.body).toMatchObject({ errors: [{ extensions: { code: "validation-failed" } }] });
      // the placeholder of an empty update_column enum is no column either
      const placeholder = await gql('mutation { insert_author(objects: [{id: 1, name: "New"}], on_conflict: {constraint: author_pkey, update_columns: [_PLACEHOLDER]}) { affected_rows } }', user);
      expect(placeholder.body).toMatchObject({ errors: [{ extensions: { code: "permission-error" } }] });
      expect((await h.db.query<{ name: string }>("select name from author where id = 1")).rows[0].name).toBe("Author 1");
    });

    it("an update's filter picks the rows, its check judges them after; a failed check changes nothing", async () => {
      const editor = { "x-hasura-role": "editor", "x-hasura-user-id": "1" };
      const passed = await gql('mutation { update_article(where: {}, _set: {title: "done!"}) { affected_rows returning { title } } }', editor);
      expect(passed.body).toEqual({ data: { update_article: { affected_rows: 1, returning: [{ title: "done!" }] } } });
      const failed = await gql('mutation { update_article(where: {}, _set: {title: "plain"}) { affected_rows } }', editor);
      expect(failed.body).toEqual({
        errors: [{ message: "check constraint of an insert/update permission has failed", extensions: { path: "$.selectionSet.update_article.args", code: "permission-error" } }],
      });
      expect((await h.db.query<{ title: string }>("select title from article")).rows.map((r) => r.title)).toEqual(["done!"]);
      const notMine = await gql('mutation { update_article(where: {}, _set: {title: "x!"}) { affected_rows } }', { "x-hasura-role": "editor", "x-hasura-user-id": "2" });
      expect(notMine.body).toEqual({ data: { update_article: { affected_rows: 0 } } });
    });
  });
}
