import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { openEngine, TEST_ROWS_SQL, user } from "./graphql-helpers.ts";

describe.each(databaseLanes())("GraphQL mutations (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  beforeEach(async () => {
    if (!t) t = await openEngine(lane);
    else await t.db.exec(`truncate gql_article, gql_author restart identity cascade; ${TEST_ROWS_SQL}`);
  });
  afterAll(async () => t?.close());

  const count = async () => Number((await t.db.query<{ n: string }>("select count(*)::text as n from gql_article")).rows[0].n);

  it("insert_t returns affected_rows and returning; insert_t_one returns the row", async () => {
    const r = await t.run(`mutation { insert_gql_article(objects: [{title: "E", author_id: 3, tags: {x: 1}}, {title: "F", author_id: 3}]) { affected_rows returning { title tags author { name } } } }`);
    expect(r).toEqual({ data: { insert_gql_article: { affected_rows: 2, returning: [{ title: "E", tags: { x: 1 }, author: { name: "Chen" } }, { title: "F", tags: [], author: { name: "Chen" } }] } } });
    const one = await t.run(`mutation($o: gql_article_insert_input!) { insert_gql_article_one(object: $o) { id title } }`, undefined, { o: { title: "G", author_id: 1 } });
    expect(one.data).toEqual({ insert_gql_article_one: { id: 7, title: "G" } });
  });

  it("on_conflict updates the listed columns or does nothing", async () => {
    const up = await t.run(`mutation { insert_gql_author(objects: [{email: "ada@example.com", name: "Ada L."}], on_conflict: {constraint: gql_author_email_key, update_columns: [name]}) { affected_rows returning { id name } } }`);
    expect(up.data).toEqual({ insert_gql_author: { affected_rows: 1, returning: [{ id: 1, name: "Ada L." }] } });
    const nothing = await t.run(`mutation { insert_gql_author(objects: [{email: "ada@example.com", name: "X"}], on_conflict: {constraint: gql_author_email_key, update_columns: []}) { affected_rows } }`);
    expect(nothing.data).toEqual({ insert_gql_author: { affected_rows: 0 } });
    const guarded = await t.run(`mutation { insert_gql_author(objects: [{email: "ada@example.com", name: "Y"}], on_conflict: {constraint: gql_author_email_key, update_columns: [name], where: {name: {_eq: "nobody"}}}) { affected_rows } }`);
    expect(guarded.data).toEqual({ insert_gql_author: { affected_rows: 0 } });
  });

  it("update_t with _set/_inc and jsonb operators; update_t_by_pk", async () => {
    const r = await t.run(`mutation { update_gql_article(where: {author_id: {_eq: 1}}, _set: {published: true}, _inc: {views: 5}, _append: {tags: ["z"]}) { affected_rows returning { id views published tags } } }`);
    expect(r.data).toEqual({ update_gql_article: { affected_rows: 2, returning: expect.arrayContaining([{ id: 1, views: 15, published: true, tags: ["a", "b", "z"] }, { id: 2, views: 25, published: true, tags: ["b", "z"] }]) } });
    const pk = await t.run(`mutation { update_gql_author_by_pk(pk_columns: {id: 1}, _delete_key: {bio: "tags"}, _set: {name: "A"}) { name bio } }`);
    expect(pk.data).toEqual({ update_gql_author_by_pk: { name: "A", bio: { lang: "en" } } });
    const none = await t.run(`mutation { update_gql_author_by_pk(pk_columns: {id: 99}, _set: {name: "A"}) { name } }`);
    expect(none.data).toEqual({ update_gql_author_by_pk: null });
    const twice = await t.run(`mutation { update_gql_article(where: {}, _set: {views: 1}, _inc: {views: 1}) { affected_rows } }`);
    expect(twice.errors?.[0].extensions.code).toBe("validation-failed");
  });

  it("delete_t and delete_t_by_pk", async () => {
    const r = await t.run(`mutation { delete_gql_article(where: {published: {_eq: false}}) { affected_rows returning { title } } }`);
    expect(r.data).toEqual({ delete_gql_article: { affected_rows: 2, returning: [{ title: "Beta" }, { title: "Delta" }] } });
    expect((await t.run(`mutation { delete_gql_article_by_pk(id: 1) { title } }`)).data).toEqual({ delete_gql_article_by_pk: { title: "Alpha" } });
    expect(await count()).toBe(1);
  });

  it("runs all mutation root fields of a request in one transaction", async () => {
    const r = await t.run(`mutation { a: delete_gql_article(where: {}) { affected_rows } b: insert_gql_article_one(object: {title: "x", author_id: 999}) { id } }`);
    expect(r.errors?.[0].extensions.code).toBe("constraint-violation");
    expect(r.errors?.[0].message).toMatch(/^Foreign key violation\./);
    expect(await count()).toBe(4);
  });

  it("constraint violations in Hasura's words, never with SQL for a non-admin", async () => {
    const dup = await t.run(`mutation { insert_gql_author_one(object: {name: "Z", email: "ada@example.com"}) { id } }`);
    expect(dup.errors?.[0]).toMatchObject({ extensions: { code: "constraint-violation" } });
    expect(dup.errors?.[0].message).toMatch(/^Uniqueness violation\. duplicate key value violates unique constraint "gql_author_email_key"/);
    const nn = await t.run(`mutation { insert_gql_author_one(object: {email: "q@x"}) { id } }`);
    expect(nn.errors?.[0].message).toMatch(/^Not-NULL violation\./);
  });

  it("insert permission: presets from session variables, column restriction, check", async () => {
    const r = await t.run(`mutation { insert_gql_article_one(object: {title: "Mine", published: false}) { title author_id } }`, user(2));
    expect(r.data).toEqual({ insert_gql_article_one: { title: "Mine", author_id: 2 } });
    const notAllowed = await t.run(`mutation { insert_gql_article_one(object: {title: "x", author_id: 1}) { title } }`, user(2));
    expect(notAllowed.errors?.[0]).toEqual({ message: "field 'author_id' not found in type: 'gql_article_insert_input'", extensions: { path: expect.any(String), code: "validation-failed" } });
  });

  it("update permission: filter and check", async () => {
    const mine = await t.run(`mutation { update_gql_article(where: {}, _set: {title: "Mine"}) { affected_rows } }`, user(1));
    expect(mine.data).toEqual({ update_gql_article: { affected_rows: 2 } });
    const check = await t.run(`mutation { update_gql_article(where: {}, _set: {title: ""}) { affected_rows } }`, user(1));
    expect(check.errors?.[0]).toMatchObject({ message: "check constraint of an insert/update permission has failed", extensions: { code: "permission-error" } });
    expect((await t.db.query("select 1 from gql_article where title = ''")).rows).toHaveLength(0);
    const noViews = await t.run(`mutation { update_gql_article(where: {}, _inc: {views: 1}) { affected_rows } }`, user(1));
    expect(noViews.errors?.[0].extensions.code).toBe("validation-failed");
  });

  it("delete permission: filter", async () => {
    const r = await t.run(`mutation { delete_gql_article(where: {}) { affected_rows } }`, user(2));
    expect(r.data).toEqual({ delete_gql_article: { affected_rows: 2 } });
    expect(await count()).toBe(2);
  });

  it("nested object and array relationship inserts", async () => {
    const r = await t.run(`mutation { insert_gql_author_one(object: {name: "Nested", articles: {data: [{title: "N1"}, {title: "N2"}]}}) { name articles(order_by: {title: asc}) { title } } }`);
    expect(r.data).toEqual({ insert_gql_author_one: { name: "Nested", articles: [{ title: "N1" }, { title: "N2" }] } });
    const o = await t.run(`mutation { insert_gql_article(objects: [{title: "O", author: {data: {name: "Parent"}}}]) { affected_rows returning { title author { name } } } }`);
    expect(o.data).toEqual({ insert_gql_article: { affected_rows: 2, returning: [{ title: "O", author: { name: "Parent" } }] } });
  });

  it("refuses a foreign key set by hand beside the nested row that determines it, in Hasura's words, writing nothing", async () => {
    const before = await count();
    const byObject = await t.run(`mutation { insert_gql_article(objects: [{title: "O", author_id: 1, author: {data: {name: "Parent"}}}]) { affected_rows } }`);
    expect(byObject.errors?.[0]).toMatchObject({
      message: 'cannot insert object relationship "author" as "author_id" column values are already determined',
      extensions: { code: "validation-failed", path: "$.selectionSet.insert_gql_article.args.objects[0].author" },
    });
    const byParent = await t.run(`mutation { insert_gql_author_one(object: {name: "Nested", articles: {data: [{title: "N1", author_id: 2}]}}) { id } }`);
    expect(byParent.errors?.[0]).toMatchObject({ message: 'cannot insert "author_id" columns as their values are already being determined by parent insert', extensions: { code: "validation-failed" } });
    expect(await count()).toBe(before);
    expect((await t.db.query("select 1 from gql_author where name in ('Parent', 'Nested')")).rows).toEqual([]);
  });
});
