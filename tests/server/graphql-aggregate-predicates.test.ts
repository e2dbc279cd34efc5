import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import type { Session } from "../../server/auth/types.ts";
import type { HasuraMetadata } from "../../server/graphql/metadata/types.ts";
import { explain, prepare } from "../../server/graphql/execute/run.ts";
import { openEngine, TEST_METADATA, user } from "./graphql-helpers.ts";

/**
 * Hasura's aggregation predicates: `<rel>_aggregate: {count | bool_and | bool_or: {arguments, distinct, filter, predicate}}`
 * in `<table>_bool_exp` for array relationships. Data (graphql-helpers): Ada → Alpha (published, 10 views, score 1.5),
 * Beta (20, 2.5); Brian → Gamma (published, 30, no score), Delta (5, 0.5); Chen → none.
 */

// Extra roles on top of the shared fixture: "reader" sees every author but only published articles (with aggregations);
// "prolific" sees the authors with at least X-Hasura-Min-Articles articles (a permission filter using a predicate).
function metadata(): HasuraMetadata {
  const md = structuredClone(TEST_METADATA) as unknown as { sources: { tables: { table: { name: string }; select_permissions: unknown[] }[] }[] };
  const [author, article] = ["gql_author", "gql_article"].map((n) => md.sources[0].tables.find((t) => t.table.name === n)!);
  author.select_permissions.push(
    { role: "reader", permission: { columns: ["id", "name"], filter: {} } },
    { role: "prolific", permission: { columns: ["id", "name"], filter: { articles_aggregate: { count: { predicate: { _gte: "X-Hasura-Min-Articles" } } } } } },
  );
  article.select_permissions.push({ role: "reader", permission: { columns: ["id", "title", "published", "views"], filter: { published: { _eq: true } }, allow_aggregations: true } });
  return md as unknown as HasuraMetadata;
}
const session = (roles: string[], variables: Record<string, string> = {}): Session => ({ roles, isAdmin: false, userId: "1", variables: { "x-hasura-user-id": "1", ...variables } });

describe.each(databaseLanes())("GraphQL aggregation predicates (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    t = await openEngine(lane);
    await t.engine.replaceMetadata(metadata());
  });
  afterAll(async () => t?.close());

  const names = async (where: string, s?: Session) => {
    const r = await t.run(`{ gql_author(where: ${where}, order_by: {id: asc}) { name } }`, s);
    expect(r.errors).toBeUndefined();
    return (r.data!.gql_author as { name: string }[]).map((a) => a.name);
  };

  it.each([
    [`{articles_aggregate: {count: {predicate: {_gt: 1}}}}`, ["Ada", "Brian"]],
    [`{articles_aggregate: {count: {predicate: {_eq: 0}}}}`, ["Chen"]],
    [`{articles_aggregate: {count: {predicate: {_gte: 1, _lte: 2}}}}`, ["Ada", "Brian"]],
    [`{articles_aggregate: {count: {predicate: {_in: [0, 5]}}}}`, ["Chen"]],
    [`{articles_aggregate: {count: {predicate: {_nin: [0]}}}}`, ["Ada", "Brian"]],
    [`{articles_aggregate: {count: {filter: {title: {_in: ["Alpha", "Beta"]}}, predicate: {_gt: 1}}}}`, ["Ada"]],
    [`{articles_aggregate: {count: {filter: {views: {_lt: 15}}, predicate: {_eq: 1}}}}`, ["Ada", "Brian"]],
    [`{articles_aggregate: {count: {filter: {author: {name: {_eq: "Brian"}}}, predicate: {_eq: 2}}}}`, ["Brian"]],
    [`{_not: {articles_aggregate: {count: {predicate: {_gt: 0}}}}}`, ["Chen"]],
    [`{_or: [{name: {_eq: "Chen"}}, {articles_aggregate: {count: {filter: {published: {_eq: true}}, predicate: {_eq: 1}}}}]}`, ["Ada", "Brian", "Chen"]],
  ])("count: %s", async (where, expected) => {
    expect(await names(where)).toEqual(expected);
  });

  it.each([
    // count(score) counts non-null values: Ada 2, Brian 1
    [`{articles_aggregate: {count: {arguments: [score], predicate: {_eq: 1}}}}`, ["Brian"]],
    [`{articles_aggregate: {count: {arguments: [published], predicate: {_eq: 2}}}}`, ["Ada", "Brian"]],
    [`{articles_aggregate: {count: {arguments: [published], distinct: true, predicate: {_eq: 2}}}}`, ["Ada", "Brian"]],
    [`{articles_aggregate: {count: {arguments: [published], distinct: true, filter: {views: {_gt: 6}}, predicate: {_eq: 2}}}}`, ["Ada"]],
    [`{articles_aggregate: {count: {arguments: [published], distinct: true, predicate: {_eq: 1}}}}`, []],
    [`{articles_aggregate: {count: {arguments: [published, author_id], distinct: true, predicate: {_eq: 2}}}}`, ["Ada", "Brian"]],
  ])("count with arguments / distinct: %s", async (where, expected) => {
    expect(await names(where)).toEqual(expected);
  });

  it.each([
    [`{articles_aggregate: {bool_or: {arguments: published, predicate: {_eq: true}}}}`, ["Ada", "Brian"]],
    [`{articles_aggregate: {bool_and: {arguments: published, predicate: {_eq: true}}}}`, []],
    [`{articles_aggregate: {bool_and: {arguments: published, filter: {views: {_gte: 10}}, predicate: {_eq: true}}}}`, ["Brian"]],
    [`{articles_aggregate: {bool_and: {arguments: published, distinct: true, filter: {views: {_gte: 10}}, predicate: {_eq: false}}}}`, ["Ada"]],
    [`{articles_aggregate: {bool_and: {arguments: published, predicate: {_is_null: true}}}}`, ["Chen"]],
    [`{articles_aggregate: {bool_or: {arguments: published, filter: {published: {_eq: false}}, predicate: {_eq: false}}}}`, ["Ada", "Brian"]],
  ])("bool_and / bool_or: %s", async (where, expected) => {
    expect(await names(where)).toEqual(expected);
  });

  it("takes the predicate from variables and works in aggregates, nested selects, updates and deletes", async () => {
    const r = await t.run(`query ($w: gql_author_bool_exp!) { gql_author_aggregate(where: $w) { aggregate { count } } }`, undefined, { w: { articles_aggregate: { count: { predicate: { _gte: 2 } } } } });
    expect(r).toEqual({ data: { gql_author_aggregate: { aggregate: { count: 2 } } } });
    const nested = await t.run(`{ gql_article(where: {author: {articles_aggregate: {count: {predicate: {_eq: 2}}}}}, order_by: {id: asc}) { title } }`);
    expect(nested.data).toEqual({ gql_article: [{ title: "Alpha" }, { title: "Beta" }, { title: "Gamma" }, { title: "Delta" }] });
    const upd = await t.run(`mutation { update_gql_author(where: {articles_aggregate: {count: {predicate: {_eq: 0}}}}, _set: {name: "Chen"}) { affected_rows returning { name } } }`);
    expect(upd).toEqual({ data: { update_gql_author: { affected_rows: 1, returning: [{ name: "Chen" }] } } });
    const del = await t.run(`mutation { delete_gql_article(where: {author: {articles_aggregate: {count: {predicate: {_gt: 5}}}}}) { affected_rows } }`);
    expect(del).toEqual({ data: { delete_gql_article: { affected_rows: 0 } } });
  });

  it("counts only the related rows the target's select permission shows", async () => {
    const reader = session(["reader"]);
    // reader sees Alpha and Gamma only: one article each
    expect(await names(`{articles_aggregate: {count: {predicate: {_eq: 1}}}}`, reader)).toEqual(["Ada", "Brian"]);
    expect(await names(`{articles_aggregate: {count: {predicate: {_eq: 2}}}}`, reader)).toEqual([]);
    expect(await names(`{articles_aggregate: {bool_and: {arguments: published, predicate: {_eq: true}}}}`, reader)).toEqual(["Ada", "Brian"]);
    expect(await names(`{articles_aggregate: {count: {filter: {published: {_eq: false}}, predicate: {_gt: 0}}}}`, reader)).toEqual([]);
  });

  it("applies predicates in permission filters, with session variables", async () => {
    expect(await names(`{}`, session(["prolific"], { "x-hasura-min-articles": "2" }))).toEqual(["Ada", "Brian"]);
    expect(await names(`{}`, session(["prolific"], { "x-hasura-min-articles": "0" }))).toEqual(["Ada", "Brian", "Chen"]);
    expect(await names(`{}`, session(["prolific"], { "x-hasura-min-articles": "3" }))).toEqual([]);
  });

  it("refuses metadata whose predicate names a column that does not exist", async () => {
    const bad = metadata() as unknown as { sources: { tables: { table: { name: string }; select_permissions: { role: string; permission: { filter: unknown } }[] }[] }[] };
    bad.sources[0].tables[0].select_permissions[0].permission.filter = { articles_aggregate: { count: { arguments: ["nope"], predicate: { _gt: 0 } } } };
    await expect(t.engine.replaceMetadata(bad as unknown as HasuraMetadata)).rejects.toMatchObject({ code: "validation-failed" });
    expect(await names(`{articles_aggregate: {count: {predicate: {_eq: 0}}}}`)).toEqual(["Chen"]);
  });

  it("exists only where the role may aggregate the target, as Hasura's schema", async () => {
    // editor: gql_author with aggregations, gql_article without
    const r = await t.run(`{ gql_author(where: {articles_aggregate: {count: {predicate: {_gt: 0}}}}) { name } }`, user(1, ["editor"]));
    expect(r.errors).toEqual([{ message: "field 'articles_aggregate' not found in type: 'gql_author_bool_exp'", extensions: { code: "validation-failed", path: expect.any(String) } }]);
    const fields = async (s: Session | undefined, type: string) => {
      const x = await t.run(`{ __type(name: "${type}") { inputFields { name } } }`, s);
      return (x.data!.__type as { inputFields: { name: string }[] } | null)?.inputFields.map((f) => f.name);
    };
    expect(await fields(user(1, ["editor"]), "gql_author_bool_exp")).not.toContain("articles_aggregate");
    expect(await fields(user(1, ["editor"]), "gql_article_aggregate_bool_exp")).toBeUndefined();
    expect(await fields(user(1), "gql_author_bool_exp")).toContain("articles_aggregate");
  });

  it("refuses more than one aggregate in one predicate field, as Hasura", async () => {
    const r = await t.run(`{ gql_author(where: {articles_aggregate: {count: {predicate: {_gt: 0}}, bool_or: {arguments: published, predicate: {_eq: true}}}}) { name } }`);
    expect(r.errors?.[0]).toMatchObject({ message: "exactly one predicate should be specified", extensions: { code: "validation-failed" } });
    const none = await t.run(`{ gql_author(where: {articles_aggregate: {}}) { name } }`);
    expect(none.errors?.[0]).toMatchObject({ message: "exactly one predicate should be specified" });
  });

  it("introspection shows Hasura's input types", async () => {
    const r = await t.run(`{
      agg: __type(name: "gql_article_aggregate_bool_exp") { inputFields { name type { name } } }
      count: __type(name: "gql_article_aggregate_bool_exp_count") { inputFields { name type { kind name ofType { kind name ofType { name } } } } }
      bool_and: __type(name: "gql_article_aggregate_bool_exp_bool_and") { inputFields { name type { kind name ofType { name } } } }
      cols: __type(name: "gql_article_select_column_gql_article_aggregate_bool_exp_bool_and_arguments_columns") { kind enumValues { name } }
      author: __type(name: "gql_author_bool_exp") { inputFields { name type { name } } }
    }`);
    expect(r.errors).toBeUndefined();
    const d = r.data as Record<string, { inputFields?: { name: string; type: unknown }[]; kind?: string; enumValues?: { name: string }[] }>;
    expect(d.agg.inputFields).toEqual([
      { name: "bool_and", type: { name: "gql_article_aggregate_bool_exp_bool_and" } },
      { name: "bool_or", type: { name: "gql_article_aggregate_bool_exp_bool_or" } },
      { name: "count", type: { name: "gql_article_aggregate_bool_exp_count" } },
    ]);
    expect(d.count.inputFields).toEqual([
      { name: "arguments", type: { kind: "LIST", name: null, ofType: { kind: "NON_NULL", name: null, ofType: { name: "gql_article_select_column" } } } },
      { name: "distinct", type: { kind: "SCALAR", name: "Boolean", ofType: null } },
      { name: "filter", type: { kind: "INPUT_OBJECT", name: "gql_article_bool_exp", ofType: null } },
      { name: "predicate", type: { kind: "NON_NULL", name: null, ofType: { kind: "INPUT_OBJECT", name: "Int_comparison_exp", ofType: null } } },
    ]);
    expect(d.bool_and.inputFields).toEqual([
      { name: "arguments", type: { kind: "NON_NULL", name: null, ofType: { name: "gql_article_select_column_gql_article_aggregate_bool_exp_bool_and_arguments_columns" } } },
      { name: "distinct", type: { kind: "SCALAR", name: "Boolean", ofType: null } },
      { name: "filter", type: { kind: "INPUT_OBJECT", name: "gql_article_bool_exp", ofType: null } },
      { name: "predicate", type: { kind: "NON_NULL", name: null, ofType: { name: "Boolean_comparison_exp" } } },
    ]);
    expect(d.cols).toEqual({ kind: "ENUM", enumValues: [{ name: "published" }] });
    expect(d.author.inputFields).toContainEqual({ name: "articles_aggregate", type: { name: "gql_article_aggregate_bool_exp" } });
  });

  it("reads the related table for live queries and keeps values out of the SQL text", () => {
    const ctx = (t.engine as unknown as { contextFor(s: Session): Parameters<typeof explain>[0] }).contextFor(session(["reader"]));
    const query = `subscription { gql_author(where: {articles_aggregate: {count: {filter: {title: {_eq: "O'Brien"}}, predicate: {_gt: 7}}}}) { name } }`;
    expect(prepare(ctx, { query }).plan.tables).toEqual(expect.arrayContaining(["public.gql_author", "public.gql_article"]));
    const [stmt] = explain(ctx, { query });
    expect(stmt.sql).not.toContain("O'Brien");
    expect(stmt.sql).not.toMatch(/> 7/);
    expect(stmt.params).toEqual(expect.arrayContaining(["O'Brien", "7", "true"]));
    expect(stmt.sql).toMatch(/exists \(select 1 from \(select count\(\*\) as "agg" from "public"."gql_article"/);
  });
});
