import type { Queryable } from "../../db/types.ts";
import type { HasuraMetadata } from "./types.ts";

/** The same table the real Hasura keeps its metadata in. */
export async function ensureMetadataTable(db: Queryable): Promise<void> {
  await db.exec(`
    create schema if not exists hdb_catalog;
    create table if not exists hdb_catalog.hdb_metadata (id integer primary key, metadata json not null, resource_version integer not null default 1);
  `);
}

export async function readStoredMetadata(db: Queryable): Promise<HasuraMetadata | undefined> {
  const r = await db.query<{ metadata: string }>("select metadata::text as metadata from hdb_catalog.hdb_metadata where id = 1");
  return r.rows[0] ? (JSON.parse(r.rows[0].metadata) as HasuraMetadata) : undefined;
}

export async function storeMetadata(db: Queryable, metadata: HasuraMetadata): Promise<void> {
  await db.query(
    `insert into hdb_catalog.hdb_metadata (id, metadata, resource_version) values (1, $1::json, 1)
     on conflict (id) do update set metadata = excluded.metadata, resource_version = hdb_catalog.hdb_metadata.resource_version + 1`,
    [JSON.stringify(metadata)],
  );
}
