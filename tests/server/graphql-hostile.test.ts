import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { openEngine, user } from "./graphql-helpers.ts";
import { ident, nameLiteral } from "../../server/graphql/sql/builder.ts";

describe("the SQL builder's guards", () => {
  it("quotes identifiers and refuses anything but a GraphQL name as a literal", () => {
    expect(ident('a"; drop table x; --')).toBe('"a""; drop table x; --"');
    expect(() => nameLiteral("a'; drop table x; --")).toThrow(/not a valid GraphQL name/);
    expect(nameLiteral("__typename")).toBe("'__typename'");
  });
});

describe.each(databaseLanes())("hostile input (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    t = await openEngine(lane);
  });
  afterAll(async () => t?.close());
  const intact = async () => {
    const r = await t.db.query<{ a: number; b: number }>("select (select count(*)::int from gql_author) as a, (select count(*)::int from gql_article) as b");
    expect(r.rows[0]).toEqual({ a: 3, b: 4 });
  };

  it("filter values are only ever parameters", async () => {
    for (const evil of ["'; drop table gql_article; --", "1 or 1=1", "\\'); delete from gql_author; --", "%' or '1'='1"]) {
      const r = await t.run(`query($v: String!) { gql_article(where: {_or: [{title: {_eq: $v}}, {title: {_ilike: $v}}, {content: {_regex: $v}}]}) { id } }`, user(1), { v: evil });
      expect(r.data?.gql_article ?? r.errors).toEqual(r.data ? [] : expect.anything());
    }
    const jsonb = await t.run(`query($k: String!, $o: jsonb) { gql_author(where: {_or: [{bio: {_has_key: $k}}, {bio: {_contains: $o}}]}) { id } }`, undefined, { k: "lang'); drop table gql_author; --", o: { "a'; --": "x" } });
    expect(jsonb.data).toEqual({ gql_author: [] });
    const path = await t.run(`mutation($p: [String!]) { update_gql_author(where: {id: {_eq: 99}}, _delete_at_path: {bio: $p}) { affected_rows } }`, undefined, { p: ["x'; drop table gql_author; --"] });
    expect(path.data).toEqual({ update_gql_author: { affected_rows: 0 } });
    await intact();
  });

  it("order_by keys, column names and enum values can only be tracked names", async () => {
    const keys = await t.run(`query($o: [gql_article_order_by!]) { gql_article(order_by: $o) { id } }`, user(1), { o: [{ 'id"; drop table gql_article; --': "asc" }] });
    expect(keys.errors?.[0].extensions.code).toBe("validation-failed");
    const dir = await t.run(`query($o: [gql_article_order_by!]) { gql_article(order_by: $o) { id } }`, user(1), { o: [{ id: "asc; drop table gql_article" }] });
    expect(dir.errors?.[0].extensions.code).toBe("validation-failed");
    const where = await t.run(`query($w: gql_article_bool_exp) { gql_article(where: $w) { id } }`, user(1), { w: { "1=1) or (true": { _eq: 1 } } });
    expect(where.errors?.[0].extensions.code).toBe("validation-failed");
    const distinct = await t.run(`query($d: [gql_article_select_column!]) { gql_article(distinct_on: $d) { id } }`, user(1), { d: ["id) from gql_author; --"] });
    expect(distinct.errors?.[0].extensions.code).toBe("validation-failed");
    const ins = await t.run(`mutation($o: [gql_article_insert_input!]!) { insert_gql_article(objects: $o) { affected_rows } }`, user(1), { o: [{ title: "x", 'author_id") values (1); drop table gql_author; --': 1 }] });
    expect(ins.errors?.[0].extensions.code).toBe("validation-failed");
    await intact();
  });

  it("aliases are GraphQL names: a quote is a syntax error", async () => {
    const r = await t.run(`{ a"b: gql_article { id } }`, user(1));
    expect(r.errors?.[0].extensions.code).toBe("validation-failed");
    const ok = await t.run(`{ __j: gql_article(limit: 1) { _1: id __o0: title } }`, user(1));
    expect(ok.data).toEqual({ __j: [{ _1: 1, __o0: "Alpha" }] });
  });

  it("deeply nested and oversized documents are refused with a clear error", async () => {
    const deep = `{ gql_author ${"{ articles ".repeat(3000)}{ id }${" }".repeat(3000)} }`;
    const r = await t.run(deep, user(1));
    expect(r.errors?.[0].extensions.code).toBe("validation-failed");
    const nestedInput = `{ gql_article(where: ${"{_not: ".repeat(5000)}{id: {_eq: 1}}${"}".repeat(5000)}) { id } }`;
    const n = await t.run(nestedInput, user(1));
    expect(n.errors?.[0].extensions.code).toBe("validation-failed");
    const big = `{ gql_article(where: {title: {_eq: "${"x".repeat(200_000)}"}}) { id } }`;
    const b = await t.run(big, user(1));
    expect(b.errors?.[0].message).toMatch(/characters long; the limit is 100000/);
    const manyFields = `{ gql_article { ${"id ".repeat(30_000)} } }`;
    const m = await t.run(manyFields);
    expect(m.errors?.[0].extensions.code).toBe("validation-failed");
    await intact();
  });

  it("a database error does not leak SQL to a non-admin", async () => {
    const r = await t.run(`{ gql_article(where: {title: {_regex: "("}}) { id } }`, user(1));
    expect(r.errors?.[0].extensions.code).toBe("data-exception");
    expect(JSON.stringify(r)).not.toMatch(/select|from "public"/i);
    expect(r.errors?.[0].extensions).not.toHaveProperty("internal");
  });
});
