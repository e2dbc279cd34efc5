/**
 * Hasura's admin interfaces: /v1/query, /v2/query and /v1/metadata. They exist only when an admin secret is
 * configured, and every request must present it in X-Hasura-Admin-Secret. Each request (a bulk with all its
 * steps) is one database transaction: run_sql and the v1 insert run in it, metadata operations are pure functions
 * (metadata-ops.ts) checked against the catalogue the transaction sees, and the engine installs their result after
 * the commit.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/types.ts";
import type { AdminEngine, HasuraMetadata, MetadataChecker } from "./metadata-types.ts";
import { AdminError, METADATA_OPS, reconcileWithCatalog } from "./metadata-ops.ts";
import { postgresError, readCatalog, runSqlResponse, withScriptSession, type ScriptSession } from "./run-sql.ts";
import { v1Insert } from "./v1-insert.ts";
import { logRunSql, type AdminCaller } from "./run-sql-log.ts";
import { recordCaller } from "../../auth/caller.ts";

export { AdminError } from "./metadata-ops.ts";
export type { AdminEngine, HasuraMetadata } from "./metadata-types.ts";

export interface AdminPluginOptions {
  engine: AdminEngine;
  db: Db;
  config: Pick<Config, "adminSecret">;
}

type Interface = "v1/query" | "v2/query" | "v1/metadata";
const SUCCESS = { message: "success" };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Compares secrets without leaking their length or prefix through timing. */
function sameSecret(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i % Math.max(given.length, 1)) || 0) ^ expected.charCodeAt(i);
  return diff === 0;
}

/** The engine's MetadataError (or anything thrown while installing metadata) in Hasura's admin shape. */
function fromEngineError(error: unknown): AdminError {
  if (error instanceof AdminError) return error;
  const e = error as { code?: unknown; message?: unknown; path?: unknown };
  return new AdminError(
    typeof e.code === "string" ? e.code : "invalid-configuration",
    typeof e.message === "string" ? e.message : String(error),
    typeof e.path === "string" ? e.path : "$.args",
  );
}

/** Database errors from the v1 insert: constraint violations as Hasura names them, the rest as postgres-error. */
function fromDatabaseError(error: unknown): AdminError {
  if (error instanceof AdminError) return error;
  const e = error as { code?: string; message?: string };
  const code = e.code ?? "";
  if (code.startsWith("23")) return new AdminError("constraint-violation", e.message ?? "constraint violation", "$.args.objects");
  if (code.startsWith("22")) return new AdminError("data-exception", e.message ?? "data exception", "$.args.objects");
  return new AdminError("postgres-error", e.message ?? String(error), "$.args");
}

/** What the steps of one admin request build up inside its transaction, installed after it commits. */
interface Pending {
  metadata: HasuraMetadata;
  /** The schema may have changed (run_sql) or a reload was asked for: the engine re-reads the catalogue after the commit. */
  reload: boolean;
  /** No statement has run in the transaction yet (a read-only run_sql can still make it read-only). */
  fresh: boolean;
  /** Checks metadata steps against the catalogue the transaction sees (read once until a run_sql step). */
  checker?: MetadataChecker;
}

export class AdminInterfaces {
  /** Admin requests change shared state (metadata, schema): one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly engine: AdminEngine,
    private readonly db: Db,
  ) {}

  handle(iface: Interface, body: unknown, caller: AdminCaller = {}): Promise<unknown> {
    const run = this.queue.then(async () => {
      await this.logBreakGlass(iface, body, caller);
      return this.request(iface, body);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Every run_sql is recorded before it runs (run-sql-log.ts); one that cannot be recorded does not run. */
  private async logBreakGlass(iface: Interface, body: unknown, caller: AdminCaller): Promise<void> {
    try {
      await logRunSql(this.db, iface, body, caller);
    } catch {
      throw new AdminError("unexpected", "run_sql could not be recorded in the break-glass log; nothing was run", "$", 500);
    }
  }

  /**
   * One request in one transaction, as Hasura runs a bulk: every step's SQL and the metadata the steps build are
   * kept together or not at all. Metadata steps are checked against the catalogue the transaction sees (a table
   * created by an earlier run_sql step can be tracked), and the metadata is installed only after the commit; when a
   * step fails, the transaction is rolled back and the metadata stays as it was.
   */
  private async request(iface: Interface, body: unknown): Promise<unknown> {
    const before = this.engine.getMetadata();
    const pending: Pending = { metadata: before, reload: false, fresh: true };
    try {
      const result = await withScriptSession(this.db, (session) => {
        pending.checker = this.engine.metadataChecker(session);
        return this.step(iface, body, session, pending);
      });
      // Dropping tables from the metadata is valid against the old catalogue too, so install first, then re-read.
      if (pending.metadata !== before) await this.engine.replaceMetadata(pending.metadata);
      if (pending.reload) await this.engine.reloadCatalog();
      return result;
    } catch (error) {
      throw fromEngineError(error);
    }
  }

  private async step(iface: Interface, body: unknown, session: ScriptSession, pending: Pending): Promise<unknown> {
    if (!isObject(body) || typeof body.type !== "string") throw new AdminError("parse-failed", 'key "type" not found', "$");
    const type = body.type;
    const args = body.args ?? {};
    if (type === "bulk" || type === "bulk_atomic") {
      if (!Array.isArray(args)) throw new AdminError("parse-failed", "expecting an array for bulk args", "$.args");
      const results: unknown[] = [];
      for (const [i, step] of args.entries()) {
        try {
          results.push(await this.step(iface, step, session, pending));
        } catch (error) {
          throw fromEngineError(error).under(`$.args[${i}]`);
        }
      }
      return results;
    }

    if (iface === "v2/query") {
      if (type === "run_sql") return this.runSql(args, session, pending);
      throw new AdminError("parse-failed", `unknown query type "${type}" for /v2/query (run_sql, bulk)`, "$.type");
    }
    if (iface === "v1/query") {
      if (type === "run_sql") return this.runSql(args, session, pending);
      if (type === "insert") return this.insert(args, session, pending);
    }
    let op = type;
    if (iface === "v1/metadata" && op.startsWith("pg_")) op = op.slice(3);
    switch (op) {
      case "export_metadata":
        return iface === "v1/metadata" && body.version === 2 ? { resource_version: 1, metadata: pending.metadata } : pending.metadata;
      case "reload_metadata":
        pending.reload = true;
        return { ...SUCCESS, is_consistent: true };
      case "get_inconsistent_metadata":
        return { is_consistent: true, inconsistent_objects: [] };
      case "drop_inconsistent_metadata":
        return SUCCESS;
    }
    const fn = METADATA_OPS[op];
    if (!fn) throw new AdminError("parse-failed", `unknown metadata operation "${type}"`, "$.type");
    const next = fn(pending.metadata, args);
    await pending.checker!.check(next); // its MetadataError becomes an AdminError in request()
    pending.fresh = false;
    pending.metadata = next;
    return SUCCESS;
  }

  private async runSql(rawArgs: unknown, session: ScriptSession, pending: Pending): Promise<unknown> {
    if (!isObject(rawArgs) || typeof rawArgs.sql !== "string") throw new AdminError("parse-failed", 'key "sql" not found', "$.args");
    const sql = rawArgs.sql;
    const readOnly = rawArgs.read_only === true;
    const check = !readOnly && rawArgs.check_metadata_consistency !== false;
    const cascade = rawArgs.cascade === true;
    try {
      // only a transaction's first statement can make it read-only; inside a bulk the step runs as it is
      if (readOnly && pending.fresh) await session.exec("SET TRANSACTION READ ONLY");
      pending.fresh = false;
      let results;
      try {
        results = await session.runScript(sql);
      } catch (error) {
        throw postgresError(error, sql);
      }
      if (!readOnly) {
        pending.reload = true;
        pending.checker!.schemaChanged();
      }
      if (check) pending.metadata = reconcileWithCatalog(pending.metadata, await readCatalog(session), cascade);
      return runSqlResponse(results);
    } catch (error) {
      if (error instanceof AdminError) throw error;
      throw postgresError(error, sql);
    }
  }

  /** The v1 insert acts as the admin role, so the database's guards apply to it as to GraphQL; run_sql stays outside them. */
  private async insert(args: unknown, session: ScriptSession, pending: Pending): Promise<unknown> {
    pending.fresh = false;
    try {
      await recordCaller(session, {}, true);
      const result = await v1Insert(session, pending.metadata, args);
      // a failed insert fails the whole request; a later run_sql step of a bulk runs as before, without a caller
      await session.query(`select set_config('hasura.user', '', true)`);
      return result;
    } catch (error) {
      throw fromDatabaseError(error);
    }
  }
}

function denied(reply: FastifyReply, status: number, error: string) {
  return reply.code(status).send({ path: "$", error, code: "access-denied" });
}

export const adminPlugin: FastifyPluginAsync<AdminPluginOptions> = async (app, options) => {
  const secret = options.config.adminSecret;
  if (!secret) return; // absent, not merely forbidden, when no admin secret is configured
  const admin = new AdminInterfaces(options.engine, options.db);

  const route = (iface: Interface) => async (request: FastifyRequest, reply: FastifyReply) => {
    const given = request.headers["x-hasura-admin-secret"];
    if (typeof given !== "string" || given === "") return denied(reply, 401, "x-hasura-admin-secret/x-hasura-access-key required, but not found");
    if (!sameSecret(given, secret)) return denied(reply, 401, "invalid x-hasura-admin-secret/x-hasura-access-key");
    const role = request.headers["x-hasura-role"];
    if (typeof role === "string" && role !== "" && role !== "admin") return denied(reply, 400, "restricted access : admin only");
    try {
      return reply.code(200).send(await admin.handle(iface, request.body, { ip: request.ip, userAgent: request.headers["user-agent"] }));
    } catch (error) {
      if (error instanceof AdminError) return reply.code(error.status).send(error.body());
      request.log.error(error);
      return reply.code(500).send({ path: "$", error: "internal error", code: "unexpected" });
    }
  };

  app.post("/v1/query", route("v1/query"));
  app.post("/v2/query", route("v2/query"));
  app.post("/v1/metadata", route("v1/metadata"));
};
