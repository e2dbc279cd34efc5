/**
 * Regenerates hasura/metadata (Hasura metadata v3) from the migrated schema: one file per tracked table,
 * an object relationship per foreign key and an array relationship on the referenced table, named as
 * docs/DECISIONS.md ("Data") says. Run after changing the migrations:  npx tsx server/db/seed-metadata.ts
 * (tests/server/db-metadata.test.ts checks that the files match the schema).
 */
import { mkdirSync, writeFileSync, rmSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { openPglite } from "./pglite.ts";
import { migrate } from "./migrate.ts";

const SECRET = new Set(["user_credentials", "refresh_tokens", "password_reset_codes", "signing_keys", "casbin_rule", "policy_changes", "outbox"]);
const db = await openPglite();
await migrate(db);
const tables = (await db.query<{ t: string }>("select tablename as t from pg_tables where schemaname='public' order by 1")).rows.map((r) => r.t).filter((t) => !SECRET.has(t));
const cols = new Map<string, Set<string>>();
for (const r of (await db.query<{ t: string; c: string }>("select table_name t, column_name c from information_schema.columns where table_schema='public'")).rows) {
  if (!cols.has(r.t)) cols.set(r.t, new Set());
  cols.get(r.t)!.add(r.c);
}
const fks = (await db.query<{ src: string; col: string; dst: string }>(`
  select c.conrelid::regclass::text src, a.attname col, c.confrelid::regclass::text dst
  from pg_constraint c join pg_attribute a on a.attrelid=c.conrelid and a.attnum=c.conkey[1]
  where c.contype='f' and array_length(c.conkey,1)=1 and connamespace='public'::regnamespace order by 1,2`)).rows
  .filter((f) => tables.includes(f.src) && tables.includes(f.dst));

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const OBJ_OVERRIDE: Record<string, string> = {
  "programs.categoryId": "cate",
  "academic_calendars.categoryId": "cate",
  "transfer_bills.fromClassId": "sourceClass",
};
function objName(src: string, col: string) {
  const o = OBJ_OVERRIDE[`${src}.${col}`];
  if (o) return o;
  if (col === "createdBy") return "creator";
  if (col === "issuedBy") return "issuer";
  return col.replace(/Id$/, "");
}
const LOGS = new Set(["broadcast_logs", "news_logs", "payment_advice_logs", "credit_note_logs", "refund_logs"]);
const singular: Record<string, string> = { users: "user", classes: "class", lessons: "lesson" };
function arrName(src: string, col: string, dst: string, siblings: string[]) {
  if (src === dst && col === "parentId") return "children";
  if (src === "lesson_sessions") return "sessions";
  if (LOGS.has(src) && col !== "createdBy" && col !== "recipientId") return "logs";
  const base = camel(src);
  if (siblings.length === 1) return base;
  const primary = dst === "users" ? ["studentId", "userId"] : [`${singular[dst] ?? dst.replace(/s$/, "")}Id`.replace(/_([a-z])/g, (_, c) => c.toUpperCase())];
  if (primary.includes(col)) return base;
  const suffix = objName(src, col);
  return base + "By" + suffix[0].toUpperCase() + suffix.slice(1);
}

const out = path.resolve(import.meta.dirname, "../../hasura/metadata");
rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, "databases/default/tables"), { recursive: true });
const w = (f: string, s: string) => writeFileSync(path.join(out, f), s);
w("version.yaml", "version: 3\n");
w("databases/databases.yaml", stringify([{
  name: "default", kind: "postgres",
  configuration: { connection_info: { database_url: { from_env: "HASURA_GRAPHQL_DATABASE_URL" }, isolation_level: "read-committed", pool_settings: { connection_lifetime: 600, idle_timeout: 180, max_connections: 50, retries: 1 }, use_prepared_statements: true } },
  tables: "!include default/tables/tables.yaml",
}]));
w("actions.graphql", "");
w("actions.yaml", "actions: []\ncustom_types:\n  enums: []\n  input_objects: []\n  objects: []\n  scalars: []\n");
for (const f of ["allow_list", "cron_triggers", "query_collections", "remote_schemas", "rest_endpoints", "inherited_roles"]) w(`${f}.yaml`, "[]\n");
w("api_limits.yaml", "{}\n");
w("graphql_schema_introspection.yaml", "disabled_for_roles: []\n");
w("network.yaml", "{}\n");
w("metrics_config.yaml", "{}\n");
w("backend_configs.yaml", "{}\n");

const problems: string[] = [];
for (const t of tables) {
  const doc: Record<string, unknown> = { table: { name: t, schema: "public" } };
  const names = new Set<string>();
  const add = (n: string) => {
    if (names.has(n) || cols.get(t)!.has(n)) problems.push(`${t}.${n}`);
    names.add(n);
  };
  const obj = fks.filter((f) => f.src === t).map((f) => { const name = objName(t, f.col); add(name); return { name, using: { foreign_key_constraint_on: f.col } }; });
  const arr = fks.filter((f) => f.dst === t).map((f) => {
    const siblings = fks.filter((g) => g.src === f.src && g.dst === t).map((g) => g.col);
    const name = arrName(f.src, f.col, t, siblings);
    add(name);
    return { name, using: { foreign_key_constraint_on: { column: f.col, table: { name: f.src, schema: "public" } } } };
  });
  if (obj.length) doc.object_relationships = obj.sort((a, b) => a.name.localeCompare(b.name));
  if (arr.length) doc.array_relationships = arr.sort((a, b) => a.name.localeCompare(b.name));
  w(`databases/default/tables/public_${t}.yaml`, stringify(doc));
}
w("databases/default/tables/tables.yaml", tables.map((t) => `- "!include public_${t}.yaml"`).join("\n") + "\n");
console.log(tables.length, "tables;", fks.length, "fks; problems:", problems);
await db.close();
