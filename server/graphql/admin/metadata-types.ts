/**
 * The metadata types the admin interfaces work on are the engine's own (Hasura metadata v3, export form);
 * this module adds only what the admin side needs on top.
 */
import type { Queryable } from "../../db/types.ts";
import type { HasuraMetadata } from "../metadata/types.ts";

export type {
  HasuraMetadata,
  QualifiedTable,
  SourceMetadata,
  TableMetadata,
  RelationshipMetadata as RelationshipDef,
  RolePermission as PermissionEntry,
} from "../metadata/types.ts";

export type PermissionType = "select" | "insert" | "update" | "delete";
export const PERMISSION_TYPES: readonly PermissionType[] = ["select", "insert", "update", "delete"];
export type RelationshipType = "object" | "array";

/** What the admin interfaces need from the engine (a subset of server/graphql's Engine). */
export interface AdminEngine {
  getMetadata(): HasuraMetadata;
  /** Validates against the catalogue, persists, rebuilds; throws MetadataError {code, message, path?} and keeps the old metadata. */
  replaceMetadata(metadata: HasuraMetadata): Promise<void>;
  /** Re-reads the Postgres catalogue (after run_sql changed the schema). */
  reloadCatalog(): Promise<void>;
  /**
   * Validates metadata against the catalogue as `q` sees it (inside a transaction: its own uncommitted DDL too);
   * `check` throws MetadataError and changes nothing. The catalogue is read once and kept until `schemaChanged()`.
   */
  metadataChecker(q: Queryable): MetadataChecker;
}

export interface MetadataChecker {
  check(metadata: HasuraMetadata): Promise<void>;
  /** SQL ran on `q`: the next check reads the catalogue again. */
  schemaChanged(): void;
}
