/**
 * Named changes the harness makes to the stored SET-UP files (never to fixtures), each listed in OUT_OF_SCOPE.md.
 * They exist because the stored setups need features that are out of scope (PostGIS, SQL functions as root
 * fields) or miss a step the MANIFEST names. Fixtures that depend on what an adaptation removes
 * are excluded in OUT_OF_SCOPE.md with that reason.
 */
export interface Adapted {
  body: unknown;
  /** human-readable list of what was changed, for the test log */
  applied: string[];
}

/** Splits a SQL script into statements, respecting quotes, dollar quotes and comments. */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      i = end < 0 ? sql.length : end + 1;
      // doubled quotes continue the literal
      while (i < sql.length && sql[i] === c) {
        const next = sql.indexOf(c, i + 1);
        i = next < 0 ? sql.length : next + 1;
      }
      continue;
    }
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
      continue;
    }
    if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
      continue;
    }
    if (c === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        i = end < 0 ? sql.length : end + tag[0].length;
        continue;
      }
    }
    if (c === ";") {
      out.push(sql.slice(start, i));
      start = i + 1;
    }
    i++;
  }
  out.push(sql.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.replace(/--[^\n]*/g, "").trim() !== "");
}

const POSTGIS_EXTENSION = /^create\s+extension\s+(if\s+not\s+exists\s+)?postgis\w*/i;
const POSTGIS_DO_BLOCK = /^do\s+\$\$[\s\S]*postgis_lib_version/i;
const GEO_TYPE = /\b(geography|geometry)\b(\s*\([^)]*\))?/gi;
const ST_STUB = "CREATE OR REPLACE FUNCTION st_geomfromewkt(text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $stub$ SELECT to_jsonb($1) $stub$";

/** postgis-stub: no PostGIS extension; geography/geometry columns become jsonb (GeoJSON values round-trip unchanged). */
function stubPostgis(sql: string): { sql: string; changed: boolean } {
  if (!/postgis|geography|geometry|st_geomfromewkt/i.test(sql)) return { sql, changed: false };
  const statements = splitSql(sql)
    .filter((s) => !POSTGIS_EXTENSION.test(s) && !POSTGIS_DO_BLOCK.test(s))
    .map((s) => (/^create\s+table/i.test(s) ? s.replace(GEO_TYPE, "jsonb") : s));
  if (statements.some((s) => /st_geomfromewkt/i.test(s))) statements.unshift(ST_STUB);
  return { sql: statements.join(";\n") + ";", changed: true };
}

const SET_LC = /^set\s+(lc_monetary|lc_numeric|lc_time)\s+(to|=)\s+("[^"]*"|'[^']*'|\S+)$/i;

/**
 * locale-fallback: `SET lc_monetary TO "en_US.utf-8"` fails on a server without that locale (Debian's minimal
 * images have only C.UTF-8); it is tried and, when the locale is missing, ignored (money still prints as $123.45).
 */
function tolerateMissingLocale(sql: string): { sql: string; changed: boolean } {
  if (!/\bset\s+lc_(monetary|numeric|time)\b/i.test(sql)) return { sql, changed: false };
  const statements = splitSql(sql).map((s) =>
    SET_LC.test(s) ? `DO $locale$ BEGIN EXECUTE ${quoteLiteral(s)}; EXCEPTION WHEN invalid_parameter_value THEN NULL; END $locale$` : s,
  );
  return { sql: statements.join(";\n") + ";", changed: true };
}

function quoteLiteral(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function mentionsKey(v: unknown, test: (key: string) => boolean): boolean {
  if (Array.isArray(v)) return v.some((x) => mentionsKey(x, test));
  if (typeof v !== "object" || v === null) return false;
  return Object.entries(v).some(([k, x]) => test(k) || mentionsKey(x, test));
}

type StepBody = { type?: string; args?: unknown };

/** Applies the generic adaptations to a setup/teardown body ({type:'bulk', args:[…]} or one step). */
export function adaptSetup(body: unknown): Adapted {
  const applied: string[] = [];
  const steps: StepBody[] = [];
  const input = body as StepBody;
  const list: StepBody[] = input?.type === "bulk" && Array.isArray(input.args) ? (input.args as StepBody[]) : [input];
  for (const step of list) {
    if (!step || typeof step !== "object") continue;
    if (step.type === "track_function") {
      applied.push(`SQL functions as root fields are out of scope: skipped track_function ${JSON.stringify((step.args as { name?: string })?.name ?? step.args)}`);
      continue;
    }
    steps.push(step);
  }
  const out: StepBody[] = [];
  for (const step of steps) {
    if (step.type === "run_sql") {
      const args = step.args as { sql?: string };
      if (typeof args?.sql === "string") {
        let sql = args.sql;
        const postgis = stubPostgis(sql);
        if (postgis.changed) {
          applied.push("postgis-stub: PostGIS extension statements removed, geography/geometry columns created as jsonb");
          sql = postgis.sql;
        }
        const locale = tolerateMissingLocale(sql);
        if (locale.changed) {
          applied.push("locale-fallback: SET lc_monetary is ignored when the server lacks the locale");
          sql = locale.sql;
        }
        if (sql !== args.sql) {
          out.push({ ...step, args: { ...args, sql } });
          continue;
        }
      }
    }
    if (typeof step.type === "string" && /^create_(select|insert|update|delete)_permission$/.test(step.type)) {
      const args = step.args as { table?: unknown; role?: string; permission?: unknown };
      const postgis = mentionsKey(args?.permission, (k) => /^[$_]st_/i.test(k));
      if (postgis) {
        applied.push(`skipped ${step.type} for role ${args?.role} on ${JSON.stringify(args?.table)}: it uses a PostGIS operator (out of scope)`);
        continue;
      }
    }
    out.push(step);
  }
  return { body: input?.type === "bulk" ? { ...input, args: out } : (out[0] ?? { type: "bulk", args: [] }), applied };
}

/**
 * Setup steps a dir needs that its stored setup lacks (MANIFEST knownInconsistent says which).
 * Run right after the dir's schema setup.
 */
export const MISSING_SETUP: Record<string, { reason: string; body: unknown }> = {
  "queries/graphql_mutation/update/basic": {
    reason:
      "MANIFEST: the readable schema_setup.yaml lacks table numerics that values_setup/values_teardown/schema_teardown/numerics_inc use; created as the MANIFEST infers it",
    body: {
      type: "bulk",
      args: [
        {
          type: "run_sql",
          args: {
            sql: "CREATE TABLE numerics (id serial primary key, num_smallint smallint, num_integer integer, num_bigint bigint, num_real real, num_double double precision, num_money money, num_numeric numeric);",
          },
        },
        { type: "track_table", args: { schema: "public", name: "numerics" } },
      ],
    },
  },
};

/** Teardown steps a dir's stored teardown lacks (MANIFEST knownInconsistent). Run right before the dir's teardown. */
export const MISSING_TEARDOWN: Record<string, { reason: string; body: unknown }> = {
  "queries/graphql_query/order_by": {
    reason: 'MANIFEST: the readable teardown.yaml does not drop table "Tag", so its drop of "Album" fails; "Tag" is dropped first (cascade: its relationship Album.Tags goes too)',
    body: { type: "run_sql", args: { sql: 'DROP TABLE "Tag";', cascade: true } },
  },
};
