/**
 * Test helpers for identity and the access policy: the real server (buildServer) over a private copy
 * of the run's seeded database, signing in as the demo accounts (one per role, plus multi_role).
 */
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { Config } from "../../server/config.ts";
import type { Db } from "../../server/db/types.ts";
import { openTestDb, type Lane } from "./db.ts";
import { serverOver, type TestServer } from "./server.ts";

export type { TestServer };

export const DEMO_PASSWORD = "Demo@12345";
export const STAFF_ROLES = [
  "front_desk", "ops_manager", "hr", "finance_staff", "finance_manager", "attendance_checker",
  "sales", "intern", "fulltime_tutor", "parttime_tutor", "hod",
] as const;
export const ALL_ROLES = ["admin", ...STAFF_ROLES] as const;

/** `observe` may wrap the database the server is given (e.g. to record the statements it sends). */
export async function startTestServer(lane: Lane, options: { observe?: (db: Db) => Db; config?: Partial<Config> } = {}): Promise<TestServer> {
  const opened = await openTestDb(lane);
  return serverOver(options.observe ? options.observe(opened) : opened, { config: options.config });
}

let address = 0;
/** A fresh client address per call, so the per-address sign-in limit does not interfere between tests. */
export function nextAddress(): string {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export async function signInRaw(app: FastifyInstance, username: string, password = DEMO_PASSWORD, ip = nextAddress()): Promise<LightMyRequestResponse> {
  return app.inject({ method: "POST", url: "/auth/sign-in", payload: { username, password }, headers: { "x-forwarded-for": ip } });
}

export async function signIn(app: FastifyInstance, username: string, password = DEMO_PASSWORD): Promise<Tokens> {
  const res = await signInRaw(app, username, password);
  if (res.statusCode !== 200) throw new Error(`sign-in as ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json().data as Tokens;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/** An /api/v2 call as the holder of token (or anonymously). */
export function api(app: FastifyInstance, method: string, url: string, token?: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return app.inject({
    method: method as "GET",
    url: `/api/v2${url}`,
    headers: token ? bearer(token) : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

export async function userId(db: Db, username: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(`select id from users where lower(username) = lower($1)`, [username]);
  if (!rows[0]) throw new Error(`no user ${username}`);
  return rows[0].id;
}

/** The newest mail in the outbox to a recipient; its body as text (a templated mail's plain-text alternative). */
export async function lastMailTo(db: Db, recipient: string): Promise<{ subject: string; body: string } | undefined> {
  const { rows } = await db.query<{ subject: string; body: string }>(
    `select subject, coalesce(payload->>'text', body) as body from outbox where recipient = $1 order by "createdAt" desc limit 1`,
    [recipient],
  );
  return rows[0];
}
