import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { openEngine, user } from "./graphql-helpers.ts";

/**
 * Issue 38: `<table>_count_estimate(where)`, our engine's addition for a list past its capped count: the planner's
 * estimate of the rows the caller may see (EXPLAIN of the where with the role's row filter merged in), asked only
 * with the columns the role may filter on. Data (graphql-helpers) plus 2,000 unpublished and 200 published articles
 * by author 2: user 1 sees the published ones and its own (role "user": published or own articles).
 */
describe.each(databaseLanes())("GraphQL count estimate (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    t = await openEngine(lane);
    await t.db.exec(`insert into gql_article (title, author_id, published) select 'hidden ' || i, 2, false from generate_series(1, 2000) i;
      insert into gql_article (title, author_id, published) select 'shown ' || i, 2, true from generate_series(1, 200) i;
      analyze gql_article`);
  });
  afterAll(async () => t?.close());

  const estimate = async (where: string, session = user(1)) => {
    const r = await t.run(`{ gql_article_count_estimate(where: ${where}) }`, session);
    expect(r.errors).toBeUndefined();
    return r.data!.gql_article_count_estimate as number;
  };

  it("estimates the rows the role may see, not the table's: the row filter is part of what is estimated", async () => {
    const exact = await t.run(`{ gql_article_aggregate { aggregate { count } } }`, user(1));
    const visible = (exact.data!.gql_article_aggregate as { aggregate: { count: number } }).aggregate.count;
    expect(visible).toBe(203); // 200 + Alpha, Gamma (published) + Beta (its own)
    const mine = await estimate(`{}`);
    expect(Math.abs(mine - visible)).toBeLessThan(visible * 0.25);
    const all = await estimate(`{}`, { roles: ["admin"], isAdmin: true, variables: {} });
    expect(all).toBeGreaterThan(2000);
    // the caller's where narrows it further
    expect(await estimate(`{ title: { _ilike: "shown%" } }`)).toBeLessThan(mine);
  });

  it("cannot be asked about a column the role may not read, nor by a role without aggregations", async () => {
    const hidden = await t.run(`{ gql_article_count_estimate(where: { views: { _gt: 1 } }) }`, user(1));
    expect(hidden.errors?.[0]?.message).toBe("field 'views' not found in type: 'gql_article_bool_exp'");
    const noAggregations = await t.run(`{ gql_author_count_estimate }`, user(1));
    expect(noAggregations.errors?.[0]?.message).toBe("field 'gql_author_count_estimate' not found in type: 'query_root'");
  });
});
