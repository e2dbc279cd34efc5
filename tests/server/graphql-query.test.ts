import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { openEngine } from "./graphql-helpers.ts";

const titles = (r: { data?: Record<string, unknown> }, key = "gql_article") => (r.data?.[key] as { title: string }[]).map((a) => a.title);

describe.each(databaseLanes())("GraphQL queries (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    t = await openEngine(lane);
  });
  afterAll(async () => t?.close());

  it("selects rows with nested relationships, keys in query order", async () => {
    const r = await t.run(`{ gql_author(order_by: {id: asc}) { name id articles(order_by: {id: asc}) { title author { name } } } }`);
    expect(r).toEqual({
      data: {
        gql_author: [
          { name: "Ada", id: 1, articles: [{ title: "Alpha", author: { name: "Ada" } }, { title: "Beta", author: { name: "Ada" } }] },
          { name: "Brian", id: 2, articles: [{ title: "Gamma", author: { name: "Brian" } }, { title: "Delta", author: { name: "Brian" } }] },
          { name: "Chen", id: 3, articles: [] },
        ],
      },
    });
    expect(Object.keys((r.data!.gql_author as object[])[0])).toEqual(["name", "id", "articles"]);
  });

  it.each([
    [`{id: {_eq: 2}}`, ["Beta"]],
    [`{id: {_neq: 2}}`, ["Alpha", "Gamma", "Delta"]],
    [`{views: {_gt: 10}}`, ["Beta", "Gamma"]],
    [`{views: {_gte: 10}}`, ["Alpha", "Beta", "Gamma"]],
    [`{views: {_lt: 10}}`, ["Delta"]],
    [`{views: {_lte: 10}}`, ["Alpha", "Delta"]],
    [`{id: {_in: [1, 3]}}`, ["Alpha", "Gamma"]],
    [`{id: {_nin: [1, 3]}}`, ["Beta", "Delta"]],
    [`{id: {_in: []}}`, []],
    [`{score: {_is_null: true}}`, ["Gamma"]],
    [`{score: {_is_null: false}}`, ["Alpha", "Beta", "Delta"]],
    [`{title: {_like: "%ta"}}`, ["Beta", "Delta"]],
    [`{title: {_nlike: "%ta"}}`, ["Alpha", "Gamma"]],
    [`{title: {_ilike: "a%"}}`, ["Alpha"]],
    [`{title: {_nilike: "%A%"}}`, []],
    [`{title: {_similar: "(Al|Ga)%"}}`, ["Alpha", "Gamma"]],
    [`{title: {_nsimilar: "(Al|Ga)%"}}`, ["Beta", "Delta"]],
    [`{title: {_regex: "^[AB]"}}`, ["Alpha", "Beta"]],
    [`{title: {_nregex: "^[AB]"}}`, ["Gamma", "Delta"]],
    [`{title: {_iregex: "^(?!alpha)"}}`, ["Beta", "Gamma", "Delta"]],
    [`{title: {_iregex: "(?<!TA)$"}}`, ["Alpha", "Gamma"]],
    [`{title: {_niregex: "^[ab]"}}`, ["Gamma", "Delta"]],
    [`{tags: {_contains: ["b"]}}`, ["Alpha", "Beta"]],
    [`{tags: {_contained_in: ["a", "b"]}}`, ["Alpha", "Beta", "Gamma"]],
    [`{author: {bio: {_has_key: "tags"}}}`, ["Alpha", "Beta"]],
    [`{author: {bio: {_has_keys_any: ["tags", "lang"]}}}`, ["Alpha", "Beta", "Gamma", "Delta"]],
    [`{author: {bio: {_has_keys_all: ["tags", "lang"]}}}`, ["Alpha", "Beta"]],
    [`{author: {bio: {_cast: {String: {_ilike: "%FR%"}}}}}`, ["Gamma", "Delta"]],
    [`{_and: [{published: {_eq: true}}, {views: {_gt: 10}}]}`, ["Gamma"]],
    [`{_or: [{id: {_eq: 1}}, {id: {_eq: 4}}]}`, ["Alpha", "Delta"]],
    [`{_not: {published: {_eq: true}}}`, ["Beta", "Delta"]],
    [`{_and: []}`, ["Alpha", "Beta", "Gamma", "Delta"]],
    [`{author: {name: {_eq: "Brian"}}}`, ["Gamma", "Delta"]],
    [`{published_on: {_gte: "2024-02-01"}}`, ["Beta", "Delta"]],
  ])("where %s", async (where, expected) => {
    const r = await t.run(`{ gql_article(where: ${where}, order_by: {id: asc}) { title } }`);
    expect(r.errors).toBeUndefined();
    expect(titles(r)).toEqual(expected);
  });

  it("filters through an array relationship as EXISTS", async () => {
    const r = await t.run(`{ gql_author(where: {articles: {views: {_gt: 25}}}) { name } }`);
    expect(r.data).toEqual({ gql_author: [{ name: "Brian" }] });
  });

  it("orders by columns with nulls variants, through object relationships, and by array aggregates", async () => {
    expect(titles(await t.run(`{ gql_article(order_by: {score: asc_nulls_first}) { title } }`))).toEqual(["Gamma", "Delta", "Alpha", "Beta"]);
    expect(titles(await t.run(`{ gql_article(order_by: {score: desc_nulls_last}) { title } }`))).toEqual(["Beta", "Alpha", "Delta", "Gamma"]);
    expect(titles(await t.run(`{ gql_article(order_by: [{author: {name: desc}}, {views: asc}]) { title } }`))).toEqual(["Delta", "Gamma", "Alpha", "Beta"]);
    const byCount = await t.run(`{ gql_author(order_by: [{articles_aggregate: {count: desc}}, {id: desc}]) { name } }`);
    expect(byCount.data).toEqual({ gql_author: [{ name: "Brian" }, { name: "Ada" }, { name: "Chen" }] });
    const bySum = await t.run(`{ gql_author(order_by: {articles_aggregate: {sum: {views: desc_nulls_last}}}) { name } }`);
    expect(bySum.data).toEqual({ gql_author: [{ name: "Brian" }, { name: "Ada" }, { name: "Chen" }] });
    expect(titles(await t.run(`{ gql_article(order_by: {}) { title } }`)).sort()).toEqual(["Alpha", "Beta", "Delta", "Gamma"]);
  });

  it("keeps the order of order_by keys as written, in literals and variables", async () => {
    const q = `query($o: [gql_article_order_by!]) { gql_article(order_by: $o) { title } }`;
    expect(titles(await t.run(q, undefined, { o: { published: "asc", views: "desc" } }))).toEqual(["Beta", "Delta", "Gamma", "Alpha"]);
    expect(titles(await t.run(q, undefined, { o: { views: "desc", published: "asc" } }))).toEqual(["Gamma", "Beta", "Alpha", "Delta"]);
  });

  it("distinct_on, limit and offset", async () => {
    const r = await t.run(`{ gql_article(distinct_on: author_id, order_by: [{author_id: asc}, {views: desc}]) { title } }`);
    expect(titles(r)).toEqual(["Beta", "Gamma"]);
    const bad = await t.run(`{ gql_article(distinct_on: author_id, order_by: {views: desc}) { title } }`);
    expect(bad.errors?.[0].message).toBe('"distinct_on" columns must match initial "order_by" columns');
    expect(titles(await t.run(`{ gql_article(order_by: {id: asc}, limit: 2, offset: 1) { title } }`))).toEqual(["Beta", "Gamma"]);
    const neg = await t.run(`{ gql_article(limit: -1) { title } }`);
    expect(neg.errors?.[0].extensions.code).toBe("validation-failed");
  });

  it("by primary key", async () => {
    expect((await t.run(`{ gql_article_by_pk(id: 3) { title } }`)).data).toEqual({ gql_article_by_pk: { title: "Gamma" } });
    expect((await t.run(`{ gql_article_by_pk(id: 99) { title } }`)).data).toEqual({ gql_article_by_pk: null });
  });

  it("aggregates with nodes, count (columns, distinct), sum/avg/max/min/stddev", async () => {
    const r = await t.run(`{ gql_article_aggregate(where: {views: {_gt: 0}}, order_by: {id: asc}) {
      aggregate { count c2: count(columns: author_id, distinct: true) sum { views } avg { views } max { title views } min { published_on } stddev { views } }
      nodes { id }
    } }`);
    expect(r.data).toEqual({
      gql_article_aggregate: {
        aggregate: { count: 4, c2: 2, sum: { views: 65 }, avg: { views: 16.25 }, max: { title: "Gamma", views: 30 }, min: { published_on: "2024-01-01" }, stddev: { views: expect.any(Number) } },
        nodes: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }],
      },
    });
    const nested = await t.run(`{ gql_author(order_by: {id: asc}) { name articles_aggregate { aggregate { count } } } }`);
    expect(nested.data).toEqual({ gql_author: [{ name: "Ada", articles_aggregate: { aggregate: { count: 2 } } }, { name: "Brian", articles_aggregate: { aggregate: { count: 2 } } }, { name: "Chen", articles_aggregate: { aggregate: { count: 0 } } }] });
  });

  it("__typename, aliases, fragments, variables, @skip/@include and several root fields", async () => {
    const r = await t.run(
      `query Q($id: Int!, $withViews: Boolean!) {
        __typename
        first: gql_article_by_pk(id: $id) { __typename ...A views @include(if: $withViews) content @skip(if: true) }
        all: gql_article_aggregate { aggregate { count } __typename }
      }
      fragment A on gql_article { t: title author { ... on gql_author { name } } }`,
      undefined,
      { id: 1, withViews: true },
    );
    expect(r).toEqual({ data: { __typename: "query_root", first: { __typename: "gql_article", t: "Alpha", author: { name: "Ada" }, views: 10 }, all: { aggregate: { count: 4 }, __typename: "gql_article_aggregate" } } });
  });

  it("answers batched requests element by element", async () => {
    const r = await t.engine.execute([{ query: "{ gql_article_by_pk(id: 1) { title } }" }, { query: "{ nope }" }], { roles: ["admin"], isAdmin: true, variables: {} });
    expect(r.status).toBe(200);
    const [a, b] = r.body as { data?: unknown; errors?: { message: string }[] }[];
    expect(a).toEqual({ data: { gql_article_by_pk: { title: "Alpha" } } });
    expect(b.errors?.[0].message).toBe("field 'nope' not found in type: 'query_root'");
  });

  it("introspection works", async () => {
    const r = await t.run(`{ __schema { queryType { name } } __type(name: "gql_article_bool_exp") { inputFields { name } } }`);
    expect((r.data!.__schema as { queryType: { name: string } }).queryType.name).toBe("query_root");
    const names = (r.data!.__type as { inputFields: { name: string }[] }).inputFields.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(["_and", "_or", "_not", "title", "author"]));
    const types = await t.run(`{ __schema { types { name } } }`);
    const all = (types.data!.__schema as { types: { name: string }[] }).types.map((x) => x.name);
    for (const n of ["gql_article_order_by", "gql_article_insert_input", "gql_article_set_input", "gql_article_inc_input", "gql_article_pk_columns_input", "gql_article_on_conflict", "gql_article_constraint", "gql_article_update_column", "gql_article_select_column", "gql_article_mutation_response", "gql_article_aggregate_fields", "order_by", "jsonb", "numeric", "bigint", "timestamptz", "date", "float8"])
      expect(all).toContain(n);
  });

  it("reports validation errors in Hasura's shape", async () => {
    const r = await t.run(`{ gql_article { nope } }`);
    expect(r.errors).toEqual([{ message: "field 'nope' not found in type: 'gql_article'", extensions: { path: expect.any(String), code: "validation-failed" } }]);
    const v = await t.run(`query($l: Int) { gql_article(limit: $l) { id } }`, undefined, { l: "x" });
    expect(v.errors?.[0].extensions.code).toBe("validation-failed");
    const syntax = await t.run(`{ gql_article { `);
    expect(syntax.errors?.[0].extensions.code).toBe("validation-failed");
    const dataErr = await t.run(`{ gql_article(where: {title: {_like: "%\\\\"}}) { id } }`);
    expect(dataErr.errors?.[0].extensions.code).toBe("data-exception");
  });

  it("stringifies bigint, numeric and double precision only when asked", async () => {
    const plain = await t.run(`{ gql_author_by_pk(id: 1) { big rating } gql_article_by_pk(id: 1) { score views } }`);
    expect(plain.data).toEqual({ gql_author_by_pk: { big: 9007199254740993, rating: 4.5 }, gql_article_by_pk: { score: 1.5, views: 10 } });
    const s = await openEngine(lane, { stringifyNumericTypes: true });
    try {
      const r = await s.run(`{ gql_author_by_pk(id: 1) { big rating } gql_article_by_pk(id: 1) { score views } gql_author_aggregate { aggregate { count sum { big } max { rating } avg { rating } } } }`);
      expect(r.data).toEqual({
        gql_author_by_pk: { big: "9007199254740993", rating: "4.5" },
        gql_article_by_pk: { score: "1.5", views: 10 },
        gql_author_aggregate: { aggregate: { count: 3, sum: { big: "9007199254740995" }, max: { rating: "4.5" }, avg: { rating: 3.75 } } },
      });
    } finally {
      await s.close();
    }
  });
});
