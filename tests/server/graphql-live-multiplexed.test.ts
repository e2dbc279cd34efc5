/**
 * Issue 38: live queries multiplexed. Subscribers of one query shape — each with its own variables and session
 * values — are refetched by one statement, and each still gets exactly the rows its own permissions allow;
 * a subscriber whose answer did not change is not sent anything.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes, openTestDb } from "../support/db.ts";
import { TEST_METADATA, TEST_SCHEMA_SQL, admin, testConfig, user } from "./graphql-helpers.ts";
import { createEngine, type EngineInternals } from "../../server/graphql/engine.ts";
import type { Db } from "../../server/db/types.ts";

const QUERY = "subscription Articles($min: Int!) { gql_article(where: {id: {_gte: $min}}, order_by: {id: asc}) { title } }";

describe.each(databaseLanes())("multiplexed live queries (%s)", (lane) => {
  let db: Db;
  let engine: EngineInternals;
  const statements: string[] = [];

  beforeAll(async () => {
    const opened = await openTestDb(lane);
    await opened.exec(TEST_SCHEMA_SQL);
    // every statement sent, on its own or in a transaction (on PostgreSQL the live statement runs in one, without JIT)
    db = {
      ...opened,
      query: (sql, params, options) => (statements.push(sql), opened.query(sql, params, options)),
      transaction: (fn) => opened.transaction((tx) => fn({ ...tx, query: (sql, params, options) => (statements.push(sql), tx.query(sql, params, options)) })),
    };
    engine = await createEngine({ db, config: testConfig() }, { metadataDir: "/nonexistent" });
    await engine.replaceMetadata(TEST_METADATA);
  });
  afterAll(async () => {
    await engine?.close();
    await db?.close();
  });

  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 150 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  };
  const titles = (text: string) => (JSON.parse(text) as { data: { gql_article: { title: string }[] } }).data.gql_article.map((a) => a.title);

  it("one statement answers subscribers with different variables and users, each within its own permissions", async () => {
    // user 1 and user 2 see the published articles and their own unpublished ones (Beta is 1's, Delta is 2's)
    const subscribers = [
      { name: "user 1, from article 1", session: user(1), min: 1 },
      { name: "user 2, from article 1", session: user(2), min: 1 },
      { name: "user 2, from article 4", session: user(2), min: 4 },
      { name: "user 3, from article 6", session: user(3), min: 6 },
    ];
    const seen = new Map<string, string[][]>(subscribers.map((s) => [s.name, []]));
    for (const s of subscribers) engine.live.subscribe(s.session, { query: QUERY, variables: { min: s.min } }, (text) => seen.get(s.name)!.push(titles(text)));
    await until(() => [...seen.values()].every((v) => v.length >= 1));
    expect(Object.fromEntries([...seen].map(([k, v]) => [k, v[0]]))).toEqual({
      "user 1, from article 1": ["Alpha", "Beta", "Gamma"],
      "user 2, from article 1": ["Alpha", "Gamma", "Delta"],
      "user 2, from article 4": ["Delta"],
      "user 3, from article 6": [],
    });

    statements.length = 0;
    // a published article, number 5: every subscriber but "from article 6" sees it
    expect((await engine.execute({ query: `mutation { insert_gql_article_one(object: {title: "Epsilon", published: true}) { id } }` }, admin)).body).not.toHaveProperty("errors");
    await until(() => seen.get("user 1, from article 1")!.length >= 2 && seen.get("user 2, from article 1")!.length >= 2 && seen.get("user 2, from article 4")!.length >= 2);
    expect(Object.fromEntries([...seen].map(([k, v]) => [k, v.at(-1)]))).toEqual({
      "user 1, from article 1": ["Alpha", "Beta", "Gamma", "Epsilon"],
      "user 2, from article 1": ["Alpha", "Gamma", "Delta", "Epsilon"],
      "user 2, from article 4": ["Delta", "Epsilon"],
      "user 3, from article 6": [],
    });
    // its answer did not change: nothing more was sent to it
    expect(seen.get("user 3, from article 6")).toHaveLength(1);
    // the four were refetched by one statement
    expect(statements.filter((sql) => sql.startsWith("select") && sql.includes("gql_article"))).toHaveLength(1);
  });
});
