import { describe, expect, it } from "vitest";
import { compareResponse } from "../conformance/compare.ts";
import { failureCause } from "../conformance/report-causes.ts";
import { adaptSetup, splitSql } from "../conformance/adaptations.ts";

describe("conformance response comparison (upstream validate.py, as the fixtures' README describes)", () => {
  it("ignores object key order unless strict", () => {
    const expected = { data: { author: [{ id: 1, name: "A" }] } };
    const actual = { data: { author: [{ name: "A", id: 1 }] } };
    expect(compareResponse(expected, actual).failures).toEqual([]);
    expect(compareResponse(expected, actual, { strictOrder: true }).failures).toHaveLength(1);
  });

  it("keeps array order and length strict", () => {
    expect(compareResponse({ data: { a: [1, 2] } }, { data: { a: [2, 1] } }).failures).toHaveLength(2);
    expect(compareResponse({ data: { a: [1] } }, { data: { a: [1, 1] } }).failures).toHaveLength(1);
  });

  it("treats error texts as advisory but the presence of errors as strict", () => {
    const expected = { errors: [{ message: "field x not found", extensions: { code: "validation-failed", path: "$" } }] };
    const other = compareResponse(expected, { errors: [{ message: "something else", extensions: { code: "x", path: "$.y" } }] });
    expect(other.failures).toEqual([]);
    expect(other.notes.length).toBeGreaterThan(0);
    expect(compareResponse(expected, { data: { x: 1 } }).failures).toHaveLength(1);
    expect(compareResponse({ data: { x: 1 } }, { errors: [{ message: "boom" }] }).failures).toHaveLength(1);
    expect(compareResponse({ path: "$.args", error: "already tracked", code: "already-tracked" }, { path: "$", error: "x", code: "y" }).failures).toEqual([]);
  });

  it("compares batches element by element", () => {
    const r = compareResponse([{ errors: [{ message: "a" }] }, { data: { x: 1 } }], [{ errors: [{ message: "b" }] }, { data: { x: 2 } }]);
    expect(r.failures).toEqual(["$[1].data.x: expected 1, got 2"]);
  });
});

describe("failure causes in the progress report", () => {
  it("groups the same engine gap whatever the identifiers", () => {
    const a = failureCause(`Error: [http] step 1/1 (x) /v1/graphql: $: unexpected errors: [{"message":"field '$or' not found in type: 'article_bool_exp'"}]`);
    const b = failureCause(`Error: [http] step 1/2 (y) /v1/graphql: $: unexpected errors: [{"message":"field '$has_keys_any' not found in type: 'jsonb_comparison_exp'"}]`);
    expect(a).toBe(b);
    expect(failureCause("Error: setup failed: setup (x.yaml) failed: HTTP 400 postgres-error at $.args[0]: type complex already exists (query execution failed)")).toBe('setup failed: type complex already exists (query execution failed)');
  });
});

describe("setup adaptations", () => {
  it("splits SQL scripts on semicolons outside quotes, dollar quotes and comments", () => {
    expect(splitSql("select ';'; -- a;b\nselect $$x;y$$; select \"a;b\"")).toEqual(["select ';'", "-- a;b\nselect $$x;y$$", 'select "a;b"']);
  });
  it("stubs PostGIS (and skips permissions using its operators), tolerates a missing locale, keeps computed fields", () => {
    const { body, applied } = adaptSetup({
      type: "bulk",
      args: [
        { type: "run_sql", args: { sql: 'CREATE EXTENSION IF NOT EXISTS postgis;\nSET lc_monetary TO "en_US.utf-8";\ncreate table a (id int, location geography);' } },
        { type: "add_computed_field", args: { table: "a", name: "size" } },
        { type: "create_select_permission", args: { table: "a", role: "r", permission: { columns: "*", filter: { size: { _gt: 1 } } } } },
        { type: "create_select_permission", args: { table: "a", role: "g", permission: { columns: "*", filter: { location: { _st_d_within: { distance: 1, from: {} } } } } } },
        { type: "track_table", args: { name: "a" } },
      ],
    });
    const steps = (body as { args: { type: string; args: { sql?: string; role?: string } }[] }).args;
    expect(steps.map((s) => `${s.type}${s.args.role ? ` ${s.args.role}` : ""}`)).toEqual(["run_sql", "add_computed_field", "create_select_permission r", "track_table"]);
    expect(steps[0].args.sql).toBe(
      "DO $locale$ BEGIN EXECUTE 'SET lc_monetary TO \"en_US.utf-8\"'; EXCEPTION WHEN invalid_parameter_value THEN NULL; END $locale$;\ncreate table a (id int, location jsonb);",
    );
    expect(applied).toHaveLength(3);
  });
});
