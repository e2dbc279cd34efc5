import { RequestError } from "../errors.ts";
import type { ColumnModel, TableModel } from "../metadata/model.ts";
import { GRAPHQL_NAME } from "../metadata/types.ts";
import type { Value } from "../plan/ir.ts";

/** A compiled statement: the compiler's whole contract is "plan in, frozen {sql, params} out". */
export interface CompiledStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

export interface CompileOptions {
  /** Session variables, lower-case names; session values in permissions are bound from here. */
  readonly session: Readonly<Record<string, string>>;
  readonly stringifyNumericTypes: boolean;
  /** Rows per select for non-admins when nothing smaller applies. */
  readonly rowCap?: number;
  /**
   * A root list's ordered, limited rows as a materialized CTE (see compileSelect). For a PostgreSQL server, whose
   * planner would otherwise pick parallel plans for them; PGlite runs no parallel workers, and the CTE only costs.
   */
  readonly materializeRootLists?: boolean;
}


/** Quotes an identifier. Only names from tracked metadata and the catalogue reach this. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
export function tableRef(t: TableModel): string {
  return `${ident(t.schema)}.${ident(t.name)}`;
}
/** A GraphQL name (alias, __typename) as an SQL string literal: GraphQL names cannot hold a quote, checked here. */
export function nameLiteral(name: string): string {
  if (!GRAPHQL_NAME.test(name)) throw new RequestError("validation-failed", `not a valid GraphQL name: ${JSON.stringify(name)}`);
  return `'${name}'`;
}
/** Column type for casting parameters: the catalogue's type without its modifier (numeric(12,2) → numeric). */
export function castType(c: ColumnModel): string {
  return c.sqlType.replace(/\(\d+(,\s*\d+)?\)/g, "");
}

export class SqlBuilder {
  readonly params: unknown[] = [];
  private aliases = 0;
  constructor(readonly options: CompileOptions) {}

  /** The one way a value enters SQL: as a numbered parameter, cast to the type it is compared with. */
  param(value: unknown, cast?: string): string {
    this.params.push(toParam(value));
    return cast ? `$${this.params.length}::${cast}` : `$${this.params.length}`;
  }

  /** A plan value: literal, or a session variable bound now. */
  value(v: Value, cast?: string, json = false): string {
    if (v.kind === "session") {
      const s = this.options.session[v.name];
      if (s === undefined) throw new RequestError("not-found", `missing session variables: ${JSON.stringify(v.name)}`);
      // An array session variable may be a Postgres array literal ({a,b}) or JSON (["a","b"]).
      if (cast?.endsWith("[]") && s.trim().startsWith("[")) {
        try {
          return this.param(JSON.parse(s), cast);
        } catch {
          // not JSON: let Postgres read it
        }
      }
      return this.param(s, cast);
    }
    return this.param(json ? JSON.stringify(v.value) : v.value, cast);
  }

  /** Common table expressions the statement needs (root selects' base rows), see withCtes. */
  readonly ctes: string[] = [];

  /** A materialized CTE of the statement; its name. */
  cte(body: string): string {
    const name = ident(`_c${this.ctes.length + 1}`);
    this.ctes.push(`${name} as materialized (${body})`);
    return name;
  }

  /** The statement with its CTEs in front. */
  withCtes(sql: string): string {
    return this.ctes.length ? `with ${this.ctes.join(", ")} ${sql}` : sql;
  }

  /**
   * Tables a statement writes before it reads them (a nested insert's chain of CTEs): reads see the table as the
   * statement leaves it, not the snapshot it started from. Table key → the SQL of that view.
   */
  readonly overlays = new Map<string, string>();

  /** The rows of a table as this statement reads them. */
  source(t: TableModel): string {
    return this.overlays.get(t.key) ?? tableRef(t);
  }

  alias(): string {
    this.aliases += 1;
    return ident(`_${this.aliases}`);
  }

  build(sql: string): CompiledStatement {
    return Object.freeze({ sql, params: Object.freeze([...this.params]) });
  }
}

function toParam(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (Array.isArray(v)) return v.map((x) => (x === null || typeof x !== "object" ? toParam(x) : JSON.stringify(x)));
  if (typeof v === "object") return JSON.stringify(v);
  return v;
}
