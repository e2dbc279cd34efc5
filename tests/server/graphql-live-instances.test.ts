/**
 * Issue 3 §6: live queries across several server instances sharing one real PostgreSQL. Two engines, each
 * with its own pool and LISTEN connection, over one database: a mutation through one instance wakes the
 * live queries of the other (trigger → NOTIFY reaches every listener), each refetching once for its
 * subscribers. PGlite is one process's embedded database, so this lane is PostgreSQL only.
 */
import Fastify, { type FastifyInstance } from "fastify";
import WebSocket from "ws";
import { createClient, type Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { openEngine } from "./graphql-helpers.ts";
import { graphqlPlugin } from "../../server/graphql/index.ts";
import { createEngine, type EngineInternals } from "../../server/graphql/engine.ts";
import { openPostgres } from "../../server/db/postgres.ts";
import type { Db } from "../../server/db/types.ts";
import { InvalidTokenError, type TokenVerifier } from "../../server/auth/types.ts";

/** Tokens of the form "user:<id>:<role>"; anything else is invalid. */
const verifier: TokenVerifier = {
  async verifyAccessToken(token) {
    const m = /^user:(\d+):(\w+)$/.exec(token);
    if (!m) throw new InvalidTokenError("JWSInvalidSignature");
    return { userId: m[1], username: `u${m[1]}`, claims: { "x-hasura-allowed-roles": [m[2]], "x-hasura-default-role": m[2], "x-hasura-user-id": m[1] } };
  },
};

const postgresLanes = databaseLanes().filter((lane) => lane === "postgres");

async function serve(engine: EngineInternals, config: Parameters<typeof graphqlPlugin>[1]["config"]): Promise<{ app: FastifyInstance; host: string }> {
  const app = Fastify();
  await app.register(graphqlPlugin, { engine, verifier, config });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const addr = app.server.address();
  return { app, host: `127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}` };
}

describe.runIf(postgresLanes.length > 0)("live queries across two server instances on one PostgreSQL", () => {
  let first: Awaited<ReturnType<typeof openEngine>>;
  let secondDb: Db;
  let secondEngine: EngineInternals;
  const servers: { app: FastifyInstance; host: string }[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    first = await openEngine("postgres");
    const url = (first.db as { connectionString?: string }).connectionString!;
    secondDb = await openPostgres(url, { max: 4 });
    // The second instance reads the metadata the first stored, as a second server process would.
    secondEngine = await createEngine({ db: secondDb, config: first.config }, { metadataDir: "/nonexistent" });
    servers.push(await serve(first.engine, first.config), await serve(secondEngine, first.config));
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    for (const s of servers) await s.app.close();
    await secondEngine?.close();
    await secondDb?.close();
    await first?.close();
  });

  const subscribeOn = (host: string, seen: unknown[]) => {
    const client = createClient({ url: `ws://${host}/v1/graphql`, webSocketImpl: WebSocket, connectionParams: { headers: { Authorization: "Bearer user:1:user" } }, lazy: false });
    clients.push(client);
    client.subscribe(
      { query: "subscription { gql_article(where: {author_id: {_eq: 1}}, order_by: {id: asc}) { title } }" },
      { next: (v) => void seen.push(v), error: (e) => void seen.push({ error: e }), complete: () => undefined },
    );
  };
  const insertThrough = async (host: string, title: string) => {
    const r = await fetch(`http://${host}/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer user:1:user" },
      body: JSON.stringify({ query: `mutation { insert_gql_article_one(object: {title: "${title}"}) { id } }` }),
    });
    expect(((await r.json()) as { errors?: unknown }).errors).toBeUndefined();
  };
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 150 && !cond(); i++) await new Promise((r) => setTimeout(r, 100));
  };
  const titles = (v: unknown) => (v as { data: { gql_article: { title: string }[] } }).data.gql_article.map((a) => a.title);

  it("a mutation through one instance refreshes the live queries of both, in either direction", async () => {
    const onFirst: unknown[] = [];
    const onSecond: unknown[] = [];
    subscribeOn(servers[0].host, onFirst);
    subscribeOn(servers[1].host, onSecond);
    await until(() => onFirst.length >= 1 && onSecond.length >= 1);
    expect(titles(onFirst[0])).toEqual(["Alpha", "Beta"]);
    expect(titles(onSecond[0])).toEqual(["Alpha", "Beta"]);

    await insertThrough(servers[0].host, "From the first");
    await until(() => onSecond.length >= 2 && onFirst.length >= 2);
    expect(titles(onSecond[1])).toEqual(["Alpha", "Beta", "From the first"]);
    expect(titles(onFirst[1])).toEqual(["Alpha", "Beta", "From the first"]);

    await insertThrough(servers[1].host, "From the second");
    await until(() => onFirst.length >= 3 && onSecond.length >= 3);
    expect(titles(onFirst[2])).toEqual(["Alpha", "Beta", "From the first", "From the second"]);
    expect(titles(onSecond[2])).toEqual(titles(onFirst[2]));
    // Each instance keeps one shared live query for its subscribers.
    expect((first.engine as unknown as { live: { size: number } }).live.size).toBe(1);
    expect((secondEngine as unknown as { live: { size: number } }).live.size).toBe(1);
  });
});
