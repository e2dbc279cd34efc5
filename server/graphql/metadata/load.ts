import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { emptyMetadata, type HasuraMetadata, type SourceMetadata } from "./types.ts";

/**
 * Parses a YAML file of the Hasura CLI layout, resolving includes relative to the file: the CLI writes them
 * as strings ("!include public_x.yaml"); a real `!include` tag is read the same way.
 */
function readYaml(file: string): unknown {
  const dir = path.dirname(file);
  const include = {
    tag: "!include",
    resolve: (value: string) => readYaml(path.resolve(dir, value)),
  };
  const text = readFileSync(file, "utf8");
  const resolveStrings = (v: unknown): unknown => {
    if (typeof v === "string") {
      const m = /^!include\s+(.+)$/.exec(v.trim());
      return m ? readYaml(path.resolve(dir, m[1])) : v;
    }
    if (Array.isArray(v)) return v.map(resolveStrings);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveStrings(x)]));
    return v;
  };
  return resolveStrings(YAML.parse(text, { customTags: [include as YAML.ScalarTag] }) ?? null);
}

/** Reads hasura/metadata (CLI v3 layout) into the export form; empty metadata when the folder is absent. */
export function loadMetadataDir(dir: string): HasuraMetadata {
  const metadata = emptyMetadata();
  const databasesFile = path.join(dir, "databases", "databases.yaml");
  if (!existsSync(databasesFile)) return metadata;
  const databases = (readYaml(databasesFile) as SourceMetadata[] | null) ?? [];
  metadata.sources = databases.map((db) => ({ ...db, tables: (db.tables as unknown) ?? [] }) as SourceMetadata);
  for (const source of metadata.sources) {
    if (!Array.isArray(source.tables)) source.tables = [];
    source.tables = source.tables.filter(Boolean);
    if (!Array.isArray(source.functions)) delete source.functions;
  }
  const inheritedFile = path.join(dir, "inherited_roles.yaml");
  if (existsSync(inheritedFile)) {
    const roles = readYaml(inheritedFile);
    if (Array.isArray(roles) && roles.length) metadata.inherited_roles = roles as HasuraMetadata["inherited_roles"];
  }
  return metadata;
}
