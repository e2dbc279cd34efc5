/**
 * The GraphQL engine (Hasura v2 dialect). Stages, one folder each:
 * metadata/ (catalogue + metadata → model) → schema/ (GraphQL schema per permission set) →
 * plan/ (validated document → plan with permissions) → sql/ (plan → one statement per root field) →
 * execute/ (run, pass the JSON through) — and http/ (POST + websocket), live/ (live queries).
 */
export { createEngine, type Engine, type EngineOptions } from "./engine.ts";
export { graphqlPlugin } from "./http/plugin.ts";
export { MetadataError, type HasuraMetadata } from "./metadata/types.ts";
