import Fastify, { type FastifyInstance } from "fastify";
import WebSocket from "ws";
import { GraphQLClient } from "graphql-request";
import { createClient, type Client } from "graphql-ws";
import dataProvider, { liveProvider } from "@refinedev/hasura";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { openEngine } from "./graphql-helpers.ts";
import { graphqlPlugin } from "../../server/graphql/index.ts";
import type { TokenVerifier } from "../../server/auth/types.ts";

const SECRET = "refine-secret";
const verifier: TokenVerifier = { verifyAccessToken: async () => Promise.reject(new Error("no tokens here")) };

/** The Refine contract (issue 3 §8): the real @refinedev/hasura data and live providers against our engine. */
describe.each(databaseLanes())("@refinedev/hasura against the engine (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  let app: FastifyInstance;
  let dp: ReturnType<typeof dataProvider>;
  let ws: Client;
  let base = "";
  const fields = ["id", "title", "views", { author: ["name"] }];

  beforeAll(async () => {
    t = await openEngine(lane, { adminSecret: SECRET });
    app = Fastify();
    await app.register(graphqlPlugin, { engine: t.engine, verifier, config: t.config });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const addr = app.server.address();
    base = `127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
    dp = dataProvider(new GraphQLClient(`http://${base}/v1/graphql`, { headers: { "x-hasura-admin-secret": SECRET } }), { idType: "Int" });
    ws = createClient({ url: `ws://${base}/v1/graphql`, webSocketImpl: WebSocket, connectionParams: { headers: { "x-hasura-admin-secret": SECRET } } });
  });
  afterAll(async () => {
    await ws?.dispose();
    await app?.close();
    await t?.close();
  });

  const list = async (filters: unknown[], sorters: unknown[] = [{ field: "id", order: "asc" }]) => {
    const r = await dp.getList({ resource: "gql_article", filters: filters as never, sorters: sorters as never, pagination: { currentPage: 1, pageSize: 10 }, meta: { fields } });
    return { titles: r.data.map((x) => x.title), total: r.total };
  };

  it("getList with every operator the provider maps", async () => {
    const cases: [unknown[], string[]][] = [
      [[{ field: "id", operator: "eq", value: 2 }], ["Beta"]],
      [[{ field: "id", operator: "ne", value: 2 }], ["Alpha", "Gamma", "Delta"]],
      [[{ field: "views", operator: "lt", value: 10 }], ["Delta"]],
      [[{ field: "views", operator: "gt", value: 10 }], ["Beta", "Gamma"]],
      [[{ field: "views", operator: "lte", value: 10 }], ["Alpha", "Delta"]],
      [[{ field: "views", operator: "gte", value: 20 }], ["Beta", "Gamma"]],
      [[{ field: "id", operator: "in", value: [1, 4] }], ["Alpha", "Delta"]],
      [[{ field: "id", operator: "nin", value: [1, 4] }], ["Beta", "Gamma"]],
      [[{ field: "title", operator: "contains", value: "ALP" }], ["Alpha"]],
      [[{ field: "title", operator: "ncontains", value: "a" }], []],
      [[{ field: "title", operator: "containss", value: "elt" }], ["Delta"]],
      [[{ field: "title", operator: "ncontainss", value: "elt" }], ["Alpha", "Beta", "Gamma"]],
      [[{ field: "score", operator: "null", value: true }], ["Gamma"]],
      [[{ field: "score", operator: "nnull", value: true }], ["Alpha", "Beta", "Delta"]],
      [[{ field: "title", operator: "startswith", value: "al" }], ["Alpha"]],
      [[{ field: "title", operator: "nstartswith", value: "al" }], ["Beta", "Gamma", "Delta"]],
      [[{ field: "title", operator: "endswith", value: "TA" }], ["Beta", "Delta"]],
      [[{ field: "title", operator: "nendswith", value: "TA" }], ["Alpha", "Gamma"]],
      [[{ field: "title", operator: "startswiths", value: "Ga" }], ["Gamma"]],
      [[{ field: "title", operator: "nstartswiths", value: "Ga" }], ["Alpha", "Beta", "Delta"]],
      [[{ field: "title", operator: "endswiths", value: "ta" }], ["Beta", "Delta"]],
      [[{ field: "title", operator: "nendswiths", value: "ta" }], ["Alpha", "Gamma"]],
      [[{ operator: "or", value: [{ field: "id", operator: "eq", value: 1 }, { field: "id", operator: "eq", value: 3 }] }], ["Alpha", "Gamma"]],
      [[{ operator: "and", value: [{ field: "published", operator: "eq", value: true }, { field: "views", operator: "gt", value: 10 }] }], ["Gamma"]],
      [[{ operator: "not", value: [{ field: "published", operator: "eq", value: true }, { field: "views", operator: "gt", value: 10 }] }], ["Alpha", "Beta", "Delta"]],
      [[{ field: "author.name", operator: "eq", value: "Brian" }], ["Gamma", "Delta"]],
      [[], ["Alpha", "Beta", "Gamma", "Delta"]],
    ];
    for (const [filters, expected] of cases) {
      const r = await list(filters);
      expect({ filters, titles: r.titles }).toEqual({ filters, titles: expected });
      expect(r.total).toBe(expected.length);
    }
  });

  it("getList sorts through relationships, with an empty order_by, and pages", async () => {
    expect((await list([], [{ field: "author.name", order: "desc" }, { field: "views", order: "asc" }])).titles).toEqual(["Delta", "Gamma", "Alpha", "Beta"]);
    expect((await list([], [])).titles.sort()).toEqual(["Alpha", "Beta", "Delta", "Gamma"]);
    const page = await dp.getList({ resource: "gql_article", sorters: [{ field: "id", order: "asc" }], pagination: { currentPage: 2, pageSize: 3 }, meta: { fields } });
    expect(page.data.map((x) => x.title)).toEqual(["Delta"]);
    expect(page.total).toBe(4);
  });

  it("getOne, getMany", async () => {
    expect((await dp.getOne({ resource: "gql_article", id: 3, meta: { fields } })).data).toEqual({ id: 3, title: "Gamma", views: 30, author: { name: "Brian" } });
    expect((await dp.getMany({ resource: "gql_article", ids: [1, 2], meta: { fields: ["id"] } })).data).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it("create, createMany, update, updateMany, deleteOne, deleteMany", async () => {
    const created = await dp.create({ resource: "gql_article", variables: { title: "R1", author_id: 3 }, meta: { fields: ["id", "title"] } });
    expect(created.data).toMatchObject({ title: "R1" });
    const many = await dp.createMany({ resource: "gql_article", variables: [{ title: "R2", author_id: 3 }, { title: "R3", author_id: 3 }], meta: { fields: ["id", "title"] } });
    expect(many.data.map((x) => x.title)).toEqual(["R2", "R3"]);
    const updated = await dp.update({ resource: "gql_article", id: created.data.id!, variables: { title: "R1!" }, meta: { fields: ["title"] } });
    expect(updated.data).toEqual({ title: "R1!" });
    const ids = many.data.map((x) => x.id!);
    const um = await dp.updateMany({ resource: "gql_article", ids, variables: { views: 7 }, meta: { fields: ["views"] } });
    expect(um.data.map((x) => x.views)).toEqual([7, 7]);
    const del = await dp.deleteOne({ resource: "gql_article", id: created.data.id!, meta: { fields: ["id"] } });
    expect(del.data).toEqual({ id: created.data.id });
    const dm = await dp.deleteMany({ resource: "gql_article", ids, meta: { fields: ["id"] } });
    expect(dm.data.map((x) => x.id).sort()).toEqual([...ids].sort());
    expect((await list([])).total).toBe(4);
  });

  it("custom gqlQuery and gqlMutation", async () => {
    const q = await dp.custom({ url: "", method: "get", meta: { gqlQuery: `query($id: Int!) { gql_article_by_pk(id: $id) { title } }` as never, gqlVariables: { id: 1 } } });
    expect(q.data).toEqual({ gql_article_by_pk: { title: "Alpha" } });
    const m = await dp.custom({ url: "", method: "post", meta: { gqlMutation: `mutation { update_gql_article(where: {id: {_eq: 4}}, _inc: {views: 1}) { affected_rows } }` as never } });
    expect(m.data).toEqual({ update_gql_article: { affected_rows: 1 } });
  });

  it("a list subscription through the live provider fires after a mutation", async () => {
    const live = liveProvider(ws, { idType: "Int" });
    const events: unknown[] = [];
    const sub = live.subscribe({
      channel: "resources/gql_article",
      types: ["*"],
      callback: (e) => events.push(e),
      params: { resource: "gql_article", subscriptionType: "useList", meta: { fields: ["id", "title"] }, sorters: [{ field: "id", order: "asc" }], filters: [{ field: "title", operator: "eq", value: "Live" }], pagination: { currentPage: 1, pageSize: 10 } },
    });
    const until = async (n: number) => {
      for (let i = 0; i < 100 && events.length < n; i++) await new Promise((r) => setTimeout(r, 100));
    };
    await until(1);
    expect(events[0]).toEqual([]);
    await dp.create({ resource: "gql_article", variables: { title: "Live", author_id: 3 }, meta: { fields: ["id"] } });
    await until(2);
    expect(events[1]).toEqual([{ id: expect.any(Number), title: "Live" }]);
    live.unsubscribe(sub);
  });
});
