/**
 * `npm run metadata:export -- [--out FILE]`: the Hasura metadata with every role's permissions from the
 * live access policy, as a `replace_metadata` request body for a real Hasura's /v1/metadata (DESIGN §4:
 * production may put Hasura in front of the same database). Reads the database the server uses
 * (DATABASE_URL, else the embedded one under DATA_DIR — stop the server first, it holds the lock).
 * The policy is editable at run time: export again after changing it.
 */
import { writeFileSync } from "node:fs";
import { configFromEnv, type Config } from "./config.ts";
import { openDatabase, migrate, type Db } from "./db/index.ts";
import { createPolicy } from "./auth/policy/index.ts";
import { combinedRole, rolesOf } from "./auth/provider.ts";
import { ensureMetadataTable, readStoredMetadata } from "./graphql/metadata/store.ts";
import { loadMetadataDir } from "./graphql/metadata/load.ts";
import { withGeneratedPermissions } from "./graphql/metadata/with-permissions.ts";
import type { HasuraMetadata } from "./graphql/metadata/types.ts";

export function parseOut(args: readonly string[]): string | undefined {
  const i = args.indexOf("--out");
  if (i < 0) return undefined;
  const file = args[i + 1];
  if (!file || file.startsWith("--")) throw new Error("--out needs a file name");
  return file;
}

export interface MetadataExport {
  type: "replace_metadata";
  version: 2;
  args: { metadata: HasuraMetadata };
}

/** The tracked metadata (as the engine holds it) with the live policy's permissions for every role. */
export async function buildMetadataExport(db: Db, config: Config): Promise<MetadataExport> {
  await ensureMetadataTable(db);
  const policy = await createPolicy({ db, config, migrations: 0 });
  try {
    const metadata = (await readStoredMetadata(db)) ?? loadMetadataDir("hasura/metadata");
    const withRoles = { ...metadata, inherited_roles: [...(metadata.inherited_roles ?? []), ...(await combinedRoles(db, metadata))] };
    if (!withRoles.inherited_roles.length) delete (withRoles as Partial<HasuraMetadata>).inherited_roles;
    return { type: "replace_metadata", version: 2, args: { metadata: withGeneratedPermissions(withRoles, policy.hasuraPermissions()) } };
  } finally {
    await policy.close();
  }
}

/**
 * An inherited role for every set of roles a user holds together, named as their access tokens name it
 * (`combinedRole`): a real Hasura then answers such a user with the union of the roles, as our engine does.
 */
async function combinedRoles(db: Db, metadata: HasuraMetadata): Promise<{ role_name: string; role_set: string[] }[]> {
  const { rows } = await db.query<{ role: string | null; multipleRoles: string | null }>(
    `select distinct role, "multipleRoles"::text as "multipleRoles" from users where status <> 'deleted' and "multipleRoles" is not null`,
  );
  const declared = new Set((metadata.inherited_roles ?? []).map((r) => r.role_name));
  const out = new Map<string, string[]>();
  for (const row of rows) {
    const roles = rolesOf(row);
    const name = combinedRole(roles);
    if (name && !declared.has(name)) out.set(name, [...roles].sort());
  }
  return [...out].sort(([a], [b]) => a.localeCompare(b)).map(([role_name, role_set]) => ({ role_name, role_set }));
}

async function exportMetadata(config: Config): Promise<MetadataExport> {
  const db = await openDatabase(config);
  try {
    await migrate(db);
    return await buildMetadataExport(db, config);
  } finally {
    await db.close();
  }
}

async function main() {
  const out = parseOut(process.argv.slice(2));
  const body = JSON.stringify(await exportMetadata(configFromEnv()), null, 2);
  if (out) {
    writeFileSync(out, body + "\n");
    console.error(`Wrote ${out}: POST it to Hasura's /v1/metadata with the admin secret.`);
  } else process.stdout.write(body + "\n");
}

if (process.argv[1]?.endsWith("metadata-export-cli.ts")) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
