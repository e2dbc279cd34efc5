/**
 * The app's own data and live providers (src/app/providers) against the in-process server: what a user relies on
 * when a list filters, sorts and pages, a record opens, a form saves or deletes, a refusal shows its toast, a token
 * expires, and another user's change reaches an open list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@testing-library/react";
import WebSocket from "ws";
import { parse } from "graphql";
import type { BaseRecord, CrudFilter, CrudSort, DataProvider, HttpError } from "@refinedev/core";
import { startUiServer, type UiServer } from "../support/ui-server.ts";
import { disableMotion, installDomGaps, recordRequests, useServer } from "./shell-support.ts";
import { signIn, signOut } from "../../src/app/auth.ts";
import { getSession, setSession } from "../../src/app/session.ts";
import { createDataProvider } from "../../src/app/providers/data.ts";
import { createLiveProvider, createWsClient } from "../../src/app/providers/live.ts";
import { AnsweredRows } from "../../src/app/providers/answeredRows.ts";
import { graphqlToastText } from "../../src/app/errors.ts";
import { gqlRequest } from "../../src/app/graphql.ts";
import { DEMO_PASSWORD } from "../../server/db/seed-demo.ts";

let server: UiServer;
let dp: Required<DataProvider>;
let companyId = "";
const COMPANY = "Bright Minds Education Pte Ltd";
/** Four levels of this file's own (names start with "Dpt-"): Alpha and beta of the company, Gamma deleted. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  installDomGaps();
  disableMotion();
  server = await startUiServer();
  useServer(server.baseUrl);
  await signIn("admin", DEMO_PASSWORD);
  dp = createDataProvider();
  const { data: companies } = await dp.getList({ resource: "companies", filters: [{ field: "name", operator: "eq", value: COMPANY }], meta: { fields: ["id"] } });
  companyId = String(companies[0]!.id);
  const { data } = await dp.createMany({
    resource: "levels",
    variables: [
      { name: "Dpt-Alpha", abbreviation: "DA", order: 1, companyId },
      { name: "Dpt-beta", abbreviation: "DB", order: 2, companyId },
      { name: "Dpt-Gamma", abbreviation: "DG", order: 3, status: "deleted" },
      { name: "Dpt-delta", abbreviation: "DD", order: 4 },
    ],
    meta: { fields: ["name"] },
  });
  for (const row of data) ids[String(row.name)] = String(row.id);
}, 120_000);
afterAll(async () => server?.close());

const OURS: CrudFilter = { field: "name", operator: "startswith", value: "Dpt-" };
const ASC: CrudSort[] = [{ field: "order", order: "asc" }];

async function names(filters: CrudFilter[], sorters: CrudSort[] = ASC): Promise<string[]> {
  const { data } = await dp.getList({ resource: "levels", filters: [OURS, ...filters], sorters, pagination: { currentPage: 1, pageSize: 10 }, meta: { fields: ["id", "name"] } });
  return data.map((r) => String(r.name));
}

const toasts = () => [...document.querySelectorAll(".ant-message-notice")].map((n) => (n.textContent ?? "").trim());

describe("a list: filters, sort, pages and the total", () => {
  it.each<[string, CrudFilter[], string[]]>([
    ["eq", [{ field: "order", operator: "eq", value: 2 }], ["Dpt-beta"]],
    ["ne", [{ field: "status", operator: "ne", value: "deleted" }], ["Dpt-Alpha", "Dpt-beta", "Dpt-delta"]],
    ["lt", [{ field: "order", operator: "lt", value: 2 }], ["Dpt-Alpha"]],
    ["gt", [{ field: "order", operator: "gt", value: 3 }], ["Dpt-delta"]],
    ["lte", [{ field: "order", operator: "lte", value: 2 }], ["Dpt-Alpha", "Dpt-beta"]],
    ["gte", [{ field: "order", operator: "gte", value: 3 }], ["Dpt-Gamma", "Dpt-delta"]],
    ["in", [{ field: "order", operator: "in", value: [1, 4] }], ["Dpt-Alpha", "Dpt-delta"]],
    ["nin", [{ field: "order", operator: "nin", value: [1, 4] }], ["Dpt-beta", "Dpt-Gamma"]],
    ["contains (any case)", [{ field: "name", operator: "contains", value: "ALP" }], ["Dpt-Alpha"]],
    ["ncontains", [{ field: "name", operator: "ncontains", value: "ALP" }], ["Dpt-beta", "Dpt-Gamma", "Dpt-delta"]],
    ["containss (this case)", [{ field: "name", operator: "containss", value: "Gam" }], ["Dpt-Gamma"]],
    ["containss, other case", [{ field: "name", operator: "containss", value: "gam" }], []],
    ["ncontainss", [{ field: "name", operator: "ncontainss", value: "Gam" }], ["Dpt-Alpha", "Dpt-beta", "Dpt-delta"]],
    ["null", [{ field: "companyId", operator: "null", value: true }], ["Dpt-Gamma", "Dpt-delta"]],
    ["nnull", [{ field: "companyId", operator: "nnull", value: true }], ["Dpt-Alpha", "Dpt-beta"]],
    ["endswith", [{ field: "name", operator: "endswith", value: "TA" }], ["Dpt-beta", "Dpt-delta"]],
    ["startswiths", [{ field: "name", operator: "startswiths", value: "Dpt-G" }], ["Dpt-Gamma"]],
    ["through a relation", [{ field: "company.name", operator: "eq", value: COMPANY }], ["Dpt-Alpha", "Dpt-beta"]],
    ["or", [{ operator: "or", value: [{ field: "order", operator: "eq", value: 1 }, { field: "abbreviation", operator: "eq", value: "DD" }] }], ["Dpt-Alpha", "Dpt-delta"]],
    [
      "and inside or",
      [{ operator: "or", value: [{ operator: "and", value: [{ field: "order", operator: "gt", value: 1 }, { field: "companyId", operator: "nnull", value: true }] }, { field: "order", operator: "eq", value: 3 }] }],
      ["Dpt-beta", "Dpt-Gamma"],
    ],
  ])("%s", async (_name, filters, expected) => {
    expect(await names(filters)).toEqual(expected);
  });

  it("an operator Hasura has no match for is refused with its name", async () => {
    const err = (await dp.getList({ resource: "levels", filters: [{ field: "order", operator: "between", value: [1, 2] }], meta: { fields: ["id"] } }).catch((e) => e)) as HttpError;
    expect(err.message).toBe("Operator between is not supported");
  });

  it("sorts, pages and counts all the rows the filters admit", async () => {
    expect(await names([], [{ field: "order", order: "desc" }])).toEqual(["Dpt-delta", "Dpt-Gamma", "Dpt-beta", "Dpt-Alpha"]);
    expect(await names([], [{ field: "company.name", order: "desc" }, { field: "order", order: "desc" }])).toEqual(["Dpt-delta", "Dpt-Gamma", "Dpt-beta", "Dpt-Alpha"]);
    expect(await names([], [{ field: "company.name", order: "asc" }, { field: "order", order: "desc" }])).toEqual(["Dpt-beta", "Dpt-Alpha", "Dpt-delta", "Dpt-Gamma"]);
    const page2 = await dp.getList({ resource: "levels", filters: [OURS], sorters: ASC, pagination: { currentPage: 2, pageSize: 3 }, meta: { fields: ["name"] } });
    expect(page2.data.map((r) => r.name)).toEqual(["Dpt-delta"]);
    expect(page2.total).toBe(4);
    const all = await dp.getList({ resource: "levels", filters: [OURS], sorters: ASC, pagination: { mode: "off" }, meta: { fields: ["name"] } });
    expect(all.data).toHaveLength(4);
  });

  it("a page's own query, parsed or as text, gets the filters, order and page, and its own where", async () => {
    const text = `query OwnLevels($limit: Int, $offset: Int, $order_by: [levels_order_by!], $where: levels_bool_exp) {
      levels(limit: $limit, offset: $offset, order_by: $order_by, where: $where) { name company { name } }
      levels_aggregate(where: $where) { aggregate { count } }
    }`;
    for (const gqlQuery of [parse(text), text]) {
      const res = await dp.getList({
        resource: "levels",
        filters: [OURS],
        sorters: [{ field: "order", order: "desc" }],
        pagination: { currentPage: 1, pageSize: 2 },
        meta: { gqlQuery: gqlQuery as never, gqlVariables: { where: { _and: [{ status: { _eq: "active" } }] } } },
      });
      expect(res.data).toEqual([{ name: "Dpt-delta", company: null }, { name: "Dpt-beta", company: { name: COMPANY } }]);
      expect(res.total).toBe(3);
    }
  });
});

describe("records: read, save, delete", () => {
  it("getOne with a relation's fields, getMany by ids", async () => {
    const { data } = await dp.getOne({ resource: "levels", id: ids["Dpt-Alpha"]!, meta: { fields: ["name", "order", { company: ["name"] }] } });
    expect(data).toEqual({ name: "Dpt-Alpha", order: 1, company: { name: COMPANY } });
    const many = await dp.getMany({ resource: "levels", ids: [ids["Dpt-delta"]!, ids["Dpt-Alpha"]!], meta: { fields: ["name"] } });
    expect(many.data.map((r) => r.name).sort()).toEqual(["Dpt-Alpha", "Dpt-delta"]);
  });

  it("create, update, updateMany, deleteOne, deleteMany", async () => {
    const created = await dp.create({ resource: "levels", variables: { name: "Dpt-Epsilon", abbreviation: "DE", order: 5 } });
    expect(created.data).toMatchObject({ name: "Dpt-Epsilon", abbreviation: "DE", order: 5 });
    const id = String(created.data.id);
    const updated = await dp.update({ resource: "levels", id, variables: { name: "Dpt-Epsilon 2" }, meta: { fields: ["id", "name", "order"] } });
    expect(updated.data).toEqual({ id, name: "Dpt-Epsilon 2", order: 5 });
    const second = await dp.create({ resource: "levels", variables: { name: "Dpt-Zeta", abbreviation: "DZ", order: 6 }, meta: { fields: ["id"] } });
    const both = [id, String(second.data.id)];
    const many = await dp.updateMany({ resource: "levels", ids: both, variables: { order: 9 }, meta: { fields: ["order"] } });
    expect(many.data.map((r: BaseRecord) => r.order)).toEqual([9, 9]);
    const gone = await dp.deleteOne({ resource: "levels", id, meta: { fields: ["id", "name"] } });
    expect(gone.data).toEqual({ id, name: "Dpt-Epsilon 2" });
    const rest = await dp.deleteMany({ resource: "levels", ids: both });
    expect(rest.data.map((r: BaseRecord) => r.id)).toEqual([String(second.data.id)]);
    expect((await dp.getMany({ resource: "levels", ids: both, meta: { fields: ["id"] } })).data).toEqual([]);
  });

  it("custom: a page's document with its variables", async () => {
    const res = await dp.custom({ url: "", method: "get", meta: { gqlQuery: parse("query Count($w: levels_bool_exp) { levels_aggregate(where: $w) { aggregate { count } } }"), gqlVariables: { w: { name: { _ilike: "dpt-%" } } } } });
    expect(res.data).toEqual({ levels_aggregate: { aggregate: { count: 4 } } });
  });
});

describe("refusals and tokens", () => {
  it("a permission refusal becomes the toast text and an HttpError carrying the server's errors", async () => {
    await signOut();
    await signIn("intern", DEMO_PASSWORD);
    try {
      const err = (await dp.create({ resource: "levels", variables: { name: "Dpt-no", abbreviation: "X" } }).catch((e) => e)) as HttpError & { errors: { message: string }[] };
      expect(err.statusCode).toBe(400);
      // the intern may read levels, not add them: the role has no insert type for them
      expect(err.errors[0]!.message).toMatch(/^Unknown type "levels_insert_input"/);
      expect(err.message).toBe(err.errors[0]!.message);
      await waitFor(() => expect(toasts()).toContain(graphqlToastText(err.errors[0]!.message)), { timeout: 5000 });
      // gqlRequest (hand-written screens) rejects with the server's errors where errors.ts reads them
      const raw = (await gqlRequest("mutation { delete_levels(where: {}) { affected_rows } }").catch((e) => e)) as { response: { errors: { message: string }[]; status: number } };
      expect(raw.response.status).toBe(200);
      expect(raw.response.errors[0]!.message).toMatch(/delete_levels/);
    } finally {
      await signOut();
      await signIn("admin", DEMO_PASSWORD);
    }
  });

  it("an expired token is refreshed once and the request retried", async () => {
    const s = getSession()!;
    setSession({ ...s, accessToken: `${s.accessToken.slice(0, -4)}AAAA` });
    const { calls, restore } = recordRequests(server.baseUrl);
    try {
      expect(await names([{ field: "order", operator: "eq", value: 1 }])).toEqual(["Dpt-Alpha"]);
    } finally {
      restore();
    }
    expect(calls).toEqual(["/v1/graphql", "/api/v2/auth/access-token", "/v1/graphql"]);
  });
});

describe("live", () => {
  it("an open list's subscription delivers a row another user saves", async () => {
    const ws = createWsClient(WebSocket);
    const live = createLiveProvider(ws);
    const deliveries: string[][] = [];
    const unsubscribe = live.subscribe({
      channel: "resources/levels",
      types: ["*"],
      params: { resource: "levels", subscriptionType: "useList", filters: [OURS], sorters: ASC, pagination: { currentPage: 1, pageSize: 10 }, meta: { fields: ["id", "name"] } },
      callback: (rows) => deliveries.push((rows as unknown as { name: string }[]).map((r) => r.name)),
    });
    try {
      await waitFor(() => expect(deliveries.at(-1)).toEqual(["Dpt-Alpha", "Dpt-beta", "Dpt-Gamma", "Dpt-delta"]), { timeout: 10_000 });
      await dp.create({ resource: "levels", variables: { name: "Dpt-Omega", abbreviation: "DO", order: 7 }, meta: { fields: ["id"] } });
      await waitFor(() => expect(deliveries.at(-1)).toEqual(["Dpt-Alpha", "Dpt-beta", "Dpt-Gamma", "Dpt-delta", "Dpt-Omega"]), { timeout: 10_000 });
    } finally {
      live.unsubscribe(unsubscribe);
      await ws.dispose();
    }
  });

  describe("a subscription's first answer against the page's read of the same rows", () => {
    const read = { resource: "levels", filters: [OURS], sorters: ASC, pagination: { currentPage: 1, pageSize: 10 }, meta: { fields: ["id", "name"] } };
    /** The app's pair of providers sharing their answers, a socket whose messages are seen, and what reaches Refine. */
    function pair() {
      const answers = new AnsweredRows();
      const socketMessages: { type: string }[] = [];
      class WatchedSocket extends WebSocket {
        constructor(...args: ConstructorParameters<typeof WebSocket>) {
          super(...args);
          this.on("message", (m) => socketMessages.push(JSON.parse(String(m)) as { type: string }));
        }
      }
      const ws = createWsClient(WatchedSocket);
      const live = createLiveProvider(ws, answers);
      const deliveries: string[][] = [];
      const subscribe = () =>
        live.subscribe({ channel: "resources/levels", types: ["*"], params: { ...read, subscriptionType: "useList" }, callback: (rows) => deliveries.push((rows as unknown as { name: string }[]).map((r) => r.name)) });
      return { reader: createDataProvider(undefined, answers), live, ws, deliveries, socketMessages, subscribe };
    }

    it("equal to the read: not passed on, so Refine does not read the list again; the next change is", async () => {
      const p = pair();
      await p.reader.getList(read);
      const subscription = p.subscribe();
      try {
        await waitFor(() => expect(p.socketMessages.some((m) => m.type === "next")).toBe(true), { timeout: 10_000 });
        await dp.create({ resource: "levels", variables: { name: "Dpt-Sigma", abbreviation: "DS", order: 9 }, meta: { fields: ["id"] } });
        await waitFor(() => expect(p.deliveries.at(-1)).toContain("Dpt-Sigma"), { timeout: 10_000 });
        expect(p.deliveries).toHaveLength(1);
      } finally {
        p.live.unsubscribe(subscription);
        await p.ws.dispose();
      }
    });

    it("a row saved between the read and the first answer: the first answer is passed on and the row shows", async () => {
      const p = pair();
      await p.reader.getList(read);
      await dp.create({ resource: "levels", variables: { name: "Dpt-Tau", abbreviation: "DT", order: 10 }, meta: { fields: ["id"] } });
      const subscription = p.subscribe();
      try {
        await waitFor(() => expect(p.deliveries[0]).toContain("Dpt-Tau"), { timeout: 10_000 });
      } finally {
        p.live.unsubscribe(subscription);
        await p.ws.dispose();
      }
    });
  });

  it("a live query that fails answers with errors only, and the socket's other lists keep their deliveries", async () => {
    const ws = createWsClient(WebSocket);
    const live = createLiveProvider(ws);
    const deliveries: string[][] = [];
    const failing = live.subscribe({
      channel: "resources/levels",
      types: ["*"],
      // a text value PostgreSQL refuses: the live query's run fails, and the server answers `{"errors": [...]}`
      params: { resource: "levels", subscriptionType: "useList", filters: [{ field: "name", operator: "eq", value: "Dpt-\u0000" }], pagination: { currentPage: 1, pageSize: 10 }, meta: { fields: ["id"] } },
      callback: () => undefined,
    });
    const listed = live.subscribe({
      channel: "resources/levels",
      types: ["*"],
      params: { resource: "levels", subscriptionType: "useList", filters: [OURS], sorters: ASC, pagination: { currentPage: 1, pageSize: 10 }, meta: { fields: ["id", "name"] } },
      callback: (rows) => deliveries.push((rows as unknown as { name: string }[]).map((r) => r.name)),
    });
    try {
      await waitFor(() => expect(deliveries.at(-1)).toContain("Dpt-Alpha"), { timeout: 10_000 });
      await dp.create({ resource: "levels", variables: { name: "Dpt-Psi", abbreviation: "DP", order: 8 }, meta: { fields: ["id"] } });
      await waitFor(() => expect(deliveries.at(-1)).toContain("Dpt-Psi"), { timeout: 10_000 });
    } finally {
      live.unsubscribe(failing);
      live.unsubscribe(listed);
      await ws.dispose();
    }
  });
});
