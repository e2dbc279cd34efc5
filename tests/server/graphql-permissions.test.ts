import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { openEngine, user } from "./graphql-helpers.ts";
import { mergeSelectPermission } from "../../server/graphql/plan/merge.ts";
import type { BoolExp } from "../../server/graphql/plan/ir.ts";

describe("mergeSelectPermission: the one place a role's permission meets the caller's arguments", () => {
  const perm: BoolExp = { kind: "compare", column: { name: "a" } as never, castToText: false, op: "_eq", value: { kind: "session", name: "x-hasura-user-id" } };
  const mine: BoolExp = { kind: "compare", column: { name: "b" } as never, castToText: false, op: "_eq", value: { kind: "literal", value: 1 } };
  it("ANDs the permission filter with the caller's where", () => {
    expect(mergeSelectPermission({ where: mine }, { filter: perm })).toEqual({ where: { kind: "and", items: [perm, mine] }, limit: undefined });
    expect(mergeSelectPermission({}, { filter: perm }).where).toBe(perm);
    expect(mergeSelectPermission({ where: mine }, { filter: null }).where).toBe(mine);
    expect(mergeSelectPermission({}, { filter: null }).where).toEqual({ kind: "true" });
  });
  it("lets the smaller limit win", () => {
    expect(mergeSelectPermission({ limit: 5 }, { filter: null, limit: 100 }).limit).toBe(5);
    expect(mergeSelectPermission({ limit: 500 }, { filter: null, limit: 100 }).limit).toBe(100);
    expect(mergeSelectPermission({}, { filter: null }, 1000).limit).toBe(1000);
    expect(mergeSelectPermission({ limit: 2000 }, { filter: null }, 1000).limit).toBe(1000);
    expect(mergeSelectPermission({}, { filter: null }).limit).toBeUndefined();
  });
});

describe.each(databaseLanes())("GraphQL permissions (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    t = await openEngine(lane);
  });
  afterAll(async () => t?.close());

  it("applies the row filter with the session's X-Hasura-User-Id", async () => {
    expect((await t.run(`{ gql_author { id name } }`, user(2))).data).toEqual({ gql_author: [{ id: 2, name: "Brian" }] });
    const arts = await t.run(`{ gql_article(order_by: {id: asc}) { title } }`, user(2));
    expect(arts.data).toEqual({ gql_article: [{ title: "Alpha" }, { title: "Gamma" }, { title: "Delta" }] });
  });

  it("applies the target's permission inside relationship filters and fields", async () => {
    // user 2 sees only author 2, so the article's author is null for others' articles, and filtering through it finds only theirs
    const r = await t.run(`{ gql_article(order_by: {id: asc}) { title author { name } } }`, user(2));
    expect(r.data).toEqual({ gql_article: [{ title: "Alpha", author: null }, { title: "Gamma", author: { name: "Brian" } }, { title: "Delta", author: { name: "Brian" } }] });
    const f = await t.run(`{ gql_article(where: {author: {name: {_eq: "Ada"}}}) { title } }`, user(2));
    expect(f.data).toEqual({ gql_article: [] });
  });

  it("a relationship filter and object field served by the row joined for order_by keep the target's permission", async () => {
    // the filter is tested on (and the author built from) the author row joined to sort by author.name
    const q = `{ gql_article(where: {author: {name: {_like: "%"}}}, order_by: [{author: {name: desc}}, {id: asc}]) { title author { id name } } }`;
    expect((await t.run(q, user(2))).data).toEqual({ gql_article: [{ title: "Gamma", author: { id: 2, name: "Brian" } }, { title: "Delta", author: { id: 2, name: "Brian" } }] });
    expect((await t.run(q, user(1))).data).toEqual({ gql_article: [{ title: "Alpha", author: { id: 1, name: "Ada" } }, { title: "Beta", author: { id: 1, name: "Ada" } }] });
    expect((await t.run(q)).data).toEqual({
      gql_article: [
        { title: "Gamma", author: { id: 2, name: "Brian" } },
        { title: "Delta", author: { id: 2, name: "Brian" } },
        { title: "Alpha", author: { id: 1, name: "Ada" } },
        { title: "Beta", author: { id: 1, name: "Ada" } },
      ],
    });
    // not a top-level conjunct: stays an EXISTS, the order join's null rows still sort (nulls last for asc)
    const n = await t.run(`{ gql_article(where: {_not: {author: {name: {_eq: "Brian"}}}}, order_by: [{author: {name: asc}}, {id: asc}]) { title author { name } } }`, user(2));
    expect(n.data).toEqual({ gql_article: [{ title: "Alpha", author: null }] });
    const e = await t.run(`{ gql_article(where: {author: {name: {_eq: "Ada"}}}, order_by: {author: {name: asc}}) { title } }`, user(2));
    expect(e.data).toEqual({ gql_article: [] });
  });

  it("a column the role may not see is not in its schema", async () => {
    const r = await t.run(`{ gql_author { id secret } }`, user(1));
    expect(r.errors).toEqual([{ message: "field 'secret' not found in type: 'gql_author'", extensions: { path: expect.any(String), code: "validation-failed" } }]);
    const w = await t.run(`{ gql_author(where: {secret: {_eq: "s1"}}) { id } }`, user(1));
    expect(w.errors?.[0].extensions.code).toBe("validation-failed");
    const agg = await t.run(`{ gql_author_aggregate { aggregate { count } } }`, user(1));
    expect(agg.errors?.[0].message).toBe("field 'gql_author_aggregate' not found in type: 'query_root'");
    const noTable = await t.run(`{ gql_article_by_pk(id: 1) { id } }`, { roles: ["nobody"], isAdmin: false, variables: {} });
    expect(noTable.errors?.[0].message).toBe("field 'gql_article_by_pk' not found in type: 'query_root'");
  });

  it("applies the role's row limit", async () => {
    const r = await t.run(`{ gql_article(order_by: {id: asc}) { title } }`, { roles: ["editor"], isAdmin: false, variables: {} });
    expect(r.data).toEqual({ gql_article: [{ title: "Alpha" }, { title: "Gamma" }] });
  });

  it("a user with several roles gets the union: rows any role allows, columns any role grants (null where its role does not see the row)", async () => {
    const both = user(2, ["user", "editor"]);
    const r = await t.run(`{ gql_article(order_by: {id: asc}) { title content views } }`, both);
    // user: published or own (Alpha, Gamma, Delta); editor: published (Alpha, Gamma), sees content and views
    expect(r.data).toEqual({
      gql_article: [
        { title: "Alpha", content: "first", views: 10 },
        { title: "Gamma", content: "third", views: 30 },
        { title: "Delta", content: null, views: null },
      ],
    });
    const authors = await t.run(`{ gql_author(order_by: {id: asc}) { name email } }`, both);
    expect(authors.data).toEqual({ gql_author: [{ name: "Ada", email: null }, { name: "Brian", email: "brian@example.com" }, { name: "Chen", email: null }] });
  });

  it("a union of roles may not filter, order or upsert on a column that reads null on some of its rows (issue 32)", async () => {
    const both = user(2, ["user", "editor"]);
    const refused = (r: Awaited<ReturnType<typeof t.run>>, message: string) => {
      expect(r.data).toBeUndefined();
      expect(r.errors?.[0]).toMatchObject({ message, extensions: { code: "validation-failed" } });
    };
    // Delta's content reads null to this user (its own unpublished article: user's row, editor's column): it cannot be guessed.
    refused(await t.run(`{ gql_article(where: {content: {_eq: "fourth"}}) { title } }`, both), "field 'content' not found in type: 'gql_article_bool_exp'");
    refused(await t.run(`query ($w: gql_author_bool_exp) { gql_author(where: $w) { name } }`, both, { w: { email: { _like: "ada%" } } }), "field 'email' not found in type: 'gql_author_bool_exp'");
    refused(await t.run(`{ gql_author(order_by: {email: asc}) { name } }`, both), "field 'email' not found in type: 'gql_author_order_by'");
    refused(
      await t.run(`mutation { insert_gql_article(objects: [{title: "Upsert"}], on_conflict: {constraint: gql_article_pkey, update_columns: [title], where: {content: {_eq: "fourth"}}}) { affected_rows } }`, both),
      "field 'content' not found in type: 'gql_article_bool_exp'",
    );
    refused(await t.run(`mutation { delete_gql_article(where: {content: {_eq: "fourth"}}) { affected_rows } }`, both), "field 'content' not found in type: 'gql_article_bool_exp'");
    const { rows } = await t.db.query<{ n: number }>(`select count(*)::int as n from gql_article where title in ('Upsert', 'Delta')`);
    expect(rows[0].n).toBe(1);
    // Columns every row shows still filter, and a relationship joined on them still works.
    const ok = await t.run(`{ gql_article(where: {title: {_eq: "Delta"}}, order_by: {title: asc}) { title } gql_author(where: {articles: {title: {_eq: "Delta"}}}) { name } }`, both);
    expect(ok).toEqual({ data: { gql_article: [{ title: "Delta" }], gql_author: [{ name: "Brian" }] } });
  });

  it("aggregate counts are cut neither by the request's row cap nor by the role's limit; nodes and plain selects are", async () => {
    await t.db.exec(`insert into gql_author (name) select 'bulk ' || g from generate_series(1, 1100) g`);
    await t.db.exec(`insert into gql_article (title, author_id, published) select 'bulk ' || g, 2, true from generate_series(1, 1100) g`);
    try {
      // editor on gql_author: no limit of its own, so the row cap (1000) applies to rows, not to the count
      const editor = { roles: ["editor"], isAdmin: false, variables: {} };
      const q = `{ gql_author_aggregate(where: {name: {_like: "bulk %"}}) { aggregate { count } nodes { id } } gql_author(where: {name: {_like: "bulk %"}}) { id } }`;
      const r = await t.run(q, editor);
      expect(r.errors).toBeUndefined();
      const data = r.data as { gql_author_aggregate: { aggregate: { count: number }; nodes: unknown[] }; gql_author: unknown[] };
      expect(data.gql_author_aggregate.aggregate.count).toBe(1100);
      expect(data.gql_author_aggregate.nodes).toHaveLength(1000);
      expect(data.gql_author).toHaveLength(1000);
      const alone = await t.run(`{ gql_author_aggregate { aggregate { count } } }`, editor);
      expect(alone.data).toEqual({ gql_author_aggregate: { aggregate: { count: 1103 } } });
      // the caller's own limit still bounds the aggregate
      const limited = await t.run(`{ gql_author_aggregate(limit: 5) { aggregate { count } } }`, editor);
      expect(limited.data).toEqual({ gql_author_aggregate: { aggregate: { count: 5 } } });
      // user on gql_article: the role's limit 100 bounds nodes (the first 100 in order) and rows, not the count
      const u = await t.run(`{ gql_article_aggregate(order_by: {id: asc}) { aggregate { count } nodes { id } } gql_article { id } }`, user(1));
      const ud = u.data as { gql_article_aggregate: { aggregate: { count: number }; nodes: { id: number }[] }; gql_article: unknown[] };
      expect(ud.gql_article_aggregate.aggregate.count).toBe(1103); // Alpha, Beta (own), Gamma (published) and the 1100 published

      expect(ud.gql_article_aggregate.nodes).toHaveLength(100);
      const ids = ud.gql_article_aggregate.nodes.map((n) => n.id);
      expect(ids.slice(0, 3)).toEqual([1, 2, 3]);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(ud.gql_article).toHaveLength(100);
    } finally {
      await t.db.exec(`delete from gql_article where title like 'bulk %'; delete from gql_author where name like 'bulk %'`);
    }
  });

  it("a missing session variable is a clear error", async () => {
    const r = await t.run(`{ gql_author { id } }`, { roles: ["user"], isAdmin: false, variables: {} });
    expect(r.errors?.[0].message).toBe('missing session variables: "x-hasura-user-id"');
  });

  it("bounds non-admin requests: depth, aliases, batch size, rows", async () => {
    // gql_author > articles > author > articles … : 13 levels with id
    let deep = "id";
    for (let i = 11; i >= 1; i--) deep = `${i % 2 ? "articles" : "author"} { ${deep} }`;
    deep = `{ gql_author { ${deep} } }`;
    const editorAll = { roles: ["editor", "user"], isAdmin: false, userId: "1", variables: { "x-hasura-user-id": "1" } };
    const d = await t.run(deep, editorAll);
    expect(d.errors?.[0].message).toMatch(/^query depth 13 exceeds the limit of 10$/);
    expect((await t.run(deep)).errors).toBeUndefined(); // the admin secret is not bounded
    const aliases = `{ ${Array.from({ length: 51 }, (_, i) => `a${i}: gql_author { id }`).join(" ")} }`;
    expect((await t.run(aliases, user(1))).errors?.[0].message).toBe("the query uses 51 aliases; the limit is 50");
    const batch = await t.engine.execute(Array.from({ length: 21 }, () => ({ query: "{ gql_author { id } }" })), user(1));
    expect((batch.body as { errors: { message: string }[] }).errors[0].message).toBe("a batch may hold at most 20 operations; this one holds 21");
    await t.db.exec(`insert into gql_article (title, author_id, published) select 'bulk ' || g, 1, true from generate_series(1, 1100) g`);
    const rows = await t.run(`{ gql_article_aggregate { aggregate { count } } }`, user(1));
    // as in Hasura (graphql-engine #1837/#2027), the role's limit (100) bounds nodes and plain selects, not what aggregates count
    expect(rows.data).toEqual({ gql_article_aggregate: { aggregate: { count: 1103 } } });
    const editor = await t.run(`{ gql_author { articles { id } } }`, { roles: ["editor"], isAdmin: false, variables: {} });
    expect(editor.errors).toBeUndefined();
    const capped = await t.run(`{ gql_article { id } }`, { roles: ["capped"], isAdmin: false, variables: {} });
    expect(capped.errors?.[0].extensions.code).toBe("validation-failed"); // no permission at all: no field
    await t.db.exec(`delete from gql_article where title like 'bulk %'`);
  });
});
