import type { CatalogColumn } from "./catalog.ts";
import { GRAPHQL_NAME } from "./types.ts";

/** A column as the engine sees it: the catalogue's facts, its GraphQL name and what its type allows. */
export interface ColumnModel extends CatalogColumn {
  /** The GraphQL field name: the column's name unless the table's configuration gives it a custom name. */
  readonly field: string;
  /** GraphQL scalar name (Hasura's): Int, String, Boolean, Float, uuid, timestamptz, numeric, bigint, jsonb… */
  readonly scalar: string;
  /** Returned as a JSON string under --stringify-numeric-types (bigint, numeric, double precision). */
  readonly stringifiable: boolean;
  readonly numeric: boolean;
  readonly orderable: boolean;
  /** Has max/min aggregates in Postgres (numbers, text, dates and times, enums; not uuid or boolean). */
  readonly comparable: boolean;
  readonly textual: boolean;
  readonly jsonb: boolean;
}

const SCALARS: Record<string, string> = {
  int4: "Int", serial: "Int", int2: "smallint", int8: "bigint", float4: "Float", float8: "float8", numeric: "numeric",
  text: "String", varchar: "String", bool: "Boolean", name: "name", bpchar: "bpchar",
};

function scalarOf(c: CatalogColumn): string {
  const s = SCALARS[c.udt] ?? c.udt;
  return GRAPHQL_NAME.test(s) ? s : s.replace(/[^_0-9A-Za-z]/g, "_");
}

export function columnModel(c: CatalogColumn, field = c.name): ColumnModel {
  const scalar = scalarOf(c);
  return {
    ...c,
    field,
    scalar,
    stringifiable: ["int8", "numeric", "float8"].includes(c.udt),
    numeric: c.category === "N",
    orderable: c.category !== "A" && !["json", "jsonb"].includes(c.udt),
    comparable: ["N", "S", "D", "T", "E"].includes(c.category) && c.udt !== "money",
    textual: ["text", "varchar", "bpchar", "citext", "name"].includes(c.udt),
    jsonb: c.udt === "jsonb",
  };
}

