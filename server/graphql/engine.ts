import type { GraphQLSchema } from "graphql";
import type { Config } from "../config.ts";
import type { Db, Queryable } from "../db/types.ts";
import type { GeneratedPermissions, Session } from "../auth/types.ts";
import { readCatalog, type Catalog } from "./metadata/catalog.ts";
import { loadMetadataDir } from "./metadata/load.ts";
import { buildModel as buildDeclaredModel, pruneMetadata, type Model } from "./metadata/model.ts";
import { ensureMetadataTable, readStoredMetadata, storeMetadata } from "./metadata/store.ts";
import { ensureChangeTriggers } from "./metadata/triggers.ts";
import type { HasuraMetadata } from "./metadata/types.ts";
import { adminAccess, roleAccess, type Access } from "./plan/permissions.ts";
import type { MetadataChecker } from "./admin/metadata-types.ts";
import { DEFAULT_LIMITS, type RequestLimits } from "./plan/limits.ts";
import { checkPermissionFilters } from "./plan/permission-check.ts";
import { buildSchema } from "./schema/build.ts";
import { errorBody, RequestError } from "./errors.ts";
import { executeOperation, type ExecutionContext, type GraphQLRequest } from "./execute/run.ts";
import { LiveQueries } from "./live/live-queries.ts";

export interface Engine {
  /** Current metadata in Hasura v3 export form. */
  getMetadata(): HasuraMetadata;
  /** Validate against the catalogue, persist, rebuild schemas. Throws MetadataError leaving the old metadata in place. */
  replaceMetadata(metadata: HasuraMetadata): Promise<void>;
  /** Re-read the Postgres catalogue and rebuild; vanished tables/columns are dropped from metadata. */
  reloadCatalog(): Promise<void>;
  /** Validates metadata against the catalogue as q sees it (a transaction's own DDL included), read once until the schema changes. */
  metadataChecker(q: Queryable): MetadataChecker;
  /** Installs the access policy's permissions. Throws MetadataError (keeping the old ones) when a filter does not fit the data. */
  setGeneratedPermissions(permissions: GeneratedPermissions): void;
  /** Throws MetadataError when these permissions' filters name columns or relationships that do not exist. */
  checkGeneratedPermissions(permissions: GeneratedPermissions): void;
  /** Executes one GraphQL request (or a batch array) for a session; Hasura's JSON response body and HTTP status. */
  execute(body: unknown, session: Session): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

/** What the HTTP and websocket layers need beyond the Engine interface. */
export interface EngineInternals extends Engine {
  readonly db: Db;
  /** Like execute, with the body as JSON text (the JSON Postgres built, passed through). */
  executeText(body: unknown, session: Session): Promise<{ status: number; text: string }>;
  contextFor(session: Session): ExecutionContext;
  readonly live: LiveQueries;
}

export interface EngineOptions {
  metadataDir?: string;
  limits?: RequestLimits;
}

/** The model of metadata + catalogue + generated permissions, with every permission filter compiled once. */
function buildModel(metadata: HasuraMetadata, catalog: Catalog, generated?: GeneratedPermissions): Model {
  const model = buildDeclaredModel(metadata, catalog, generated);
  checkPermissionFilters(model);
  return model;
}

export async function createEngine(ctx: { db: Db; config: Config }, options: EngineOptions = {}): Promise<EngineInternals> {
  const { db, config } = ctx;
  const limits = options.limits ?? DEFAULT_LIMITS;
  await ensureMetadataTable(db);
  let metadata = await readStoredMetadata(db);
  let catalog: Catalog = await readCatalog(db);
  if (!metadata) {
    metadata = loadMetadataDir(options.metadataDir ?? "hasura/metadata");
    buildModel(metadata, catalog); // declarations are checked at start-up
    await storeMetadata(db, metadata);
  }
  let generated: GeneratedPermissions = {};
  let model: Model = buildModel(metadata, catalog, generated);
  await ensureChangeTriggers(db, model);
  let schemas = new Map<string, { access: Access; schema: GraphQLSchema }>();

  const install = (md: HasuraMetadata, m: Model) => {
    metadata = md;
    model = m;
    schemas = new Map();
    live.reset();
  };

  const schemaFor = (session: Session): { access: Access; schema: GraphQLSchema } => {
    const access = session.isAdmin ? adminAccess() : roleAccess(model, session.roles, { backendOnly: session.byAdminSecret && session.useBackendOnlyPermissions });
    let entry = schemas.get(access.key);
    if (!entry) schemas.set(access.key, (entry = { access, schema: buildSchema(model, access) }));
    return entry;
  };

  const sessionVariables = (session: Session): Record<string, string> => {
    const vars: Record<string, string> = {};
    for (const [k, v] of Object.entries(session.variables ?? {})) vars[k.toLowerCase()] = String(v);
    if (session.userId && !vars["x-hasura-user-id"]) vars["x-hasura-user-id"] = session.userId;
    return vars;
  };

  const contextFor = (session: Session): ExecutionContext => {
    const { access, schema } = schemaFor(session);
    return {
      db,
      model,
      schema,
      access,
      session: sessionVariables(session),
      stringifyNumericTypes: config.stringifyNumericTypes,
      // admins see every row (no row cap), but a signed-in admin's request is bounded like anyone's
      limits: session.isAdmin && session.byAdminSecret ? undefined : limits,
      readTimeoutMs: access.isAdmin ? undefined : config.staffStatementTimeoutMs || undefined,
    };
  };

  const one = async (request: unknown, session: Session): Promise<string> => {
    try {
      if (!request || typeof request !== "object" || Array.isArray(request)) throw new RequestError("bad-request", "the request body must be a JSON object with a \"query\"");
      return await executeOperation(contextFor(session), request as GraphQLRequest);
    } catch (e) {
      if (e instanceof RequestError) return JSON.stringify(errorBody([e], session.isAdmin));
      if (e instanceof RangeError) return JSON.stringify(errorBody([new RequestError("validation-failed", "the query is nested too deeply")]));
      const err = e as Error;
      return JSON.stringify(errorBody([new RequestError("unexpected", session.isAdmin ? err.message : "internal error", "$", 200, session.isAdmin ? { stack: err.stack } : undefined)], session.isAdmin));
    }
  };

  const executeText = async (body: unknown, session: Session): Promise<{ status: number; text: string }> => {
    if (Array.isArray(body)) {
      if (!session.isAdmin && body.length > limits.maxBatch)
        return { status: 200, text: JSON.stringify(errorBody([new RequestError("validation-failed", `a batch may hold at most ${limits.maxBatch} operations; this one holds ${body.length}`)])) };
      const parts: string[] = [];
      for (const r of body) parts.push(await one(r, session));
      return { status: 200, text: `[${parts.join(",")}]` };
    }
    return { status: 200, text: await one(body, session) };
  };

  const live: LiveQueries = new LiveQueries(db, (session) => contextFor(session));
  await live.start();

  const engine: EngineInternals = {
    db,
    live,
    getMetadata: () => metadata!,
    async replaceMetadata(next) {
      const fresh = await readCatalog(db);
      const m = buildModel(next, fresh, generated);
      await storeMetadata(db, next);
      await ensureChangeTriggers(db, m);
      catalog = fresh;
      install(next, m);
    },
    metadataChecker(q) {
      let seen: Promise<Catalog> | undefined;
      return {
        async check(next) {
          buildModel(next, await (seen ??= readCatalog(q)), generated);
        },
        schemaChanged() {
          seen = undefined;
        },
      };
    },
    async reloadCatalog() {
      const fresh = await readCatalog(db);
      const next = pruneMetadata(metadata!, fresh);
      const m = buildModel(next, fresh, generated);
      if (JSON.stringify(next) !== JSON.stringify(metadata)) await storeMetadata(db, next);
      await ensureChangeTriggers(db, m);
      catalog = fresh;
      install(JSON.stringify(next) === JSON.stringify(metadata) ? metadata! : next, m);
    },
    setGeneratedPermissions(permissions) {
      const m = buildModel(metadata!, catalog, permissions);
      generated = permissions;
      install(metadata!, m);
    },
    checkGeneratedPermissions(permissions) {
      buildModel(metadata!, catalog, permissions);
    },
    async execute(body, session) {
      const r = await executeText(body, session);
      return { status: r.status, body: JSON.parse(r.text) };
    },
    executeText,
    contextFor,
    async close() {
      await live.close();
    },
  };
  return engine;
}
