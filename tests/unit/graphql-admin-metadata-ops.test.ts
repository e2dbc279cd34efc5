import { describe, expect, it } from "vitest";
import {
  AdminError,
  clearMetadata,
  createArrayRelationship,
  createObjectRelationship,
  createSelectPermission,
  dropRelationship,
  dropSelectPermission,
  normaliseMetadata,
  reconcileWithCatalog,
  trackTable,
  untrackTable,
  type CatalogSnapshot,
} from "../../server/graphql/admin/metadata-ops.ts";
import type { HasuraMetadata } from "../../server/graphql/admin/metadata-types.ts";

const empty = (): HasuraMetadata => ({ version: 3, sources: [{ name: "default", kind: "postgres", tables: [] }] });

function authorArticle(): HasuraMetadata {
  let md = trackTable(empty(), { schema: "public", name: "author" });
  md = trackTable(md, { table: "article" });
  md = createObjectRelationship(md, { table: "article", name: "author", using: { foreign_key_constraint_on: "author_id" } });
  md = createArrayRelationship(md, { table: "author", name: "articles", using: { foreign_key_constraint_on: { table: "article", column: "author_id" } } });
  return md;
}

function errorOf(fn: () => unknown): AdminError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AdminError) return e;
    throw e;
  }
  throw new Error("expected an AdminError");
}

const catalog = (tables: Record<string, string[]>, fks: CatalogSnapshot["foreignKeys"] = [], functions: string[] = []): CatalogSnapshot => ({
  tables: new Map(Object.entries(tables).map(([k, v]) => [k, new Set(v)])),
  foreignKeys: fks,
  functions: new Set(functions),
});
const articleFk = { table: { schema: "public", name: "article" }, columns: ["author_id"], refTable: { schema: "public", name: "author" }, refColumns: ["id"] };

describe("Hasura metadata operations (pure)", () => {
  it("track_table accepts {schema,name}, {table} and a bare name, and refuses a table tracked twice", () => {
    let md = trackTable(empty(), { schema: "public", name: "author" });
    md = trackTable(md, { table: { name: "article" } });
    md = trackTable(md, "person");
    expect(md.sources[0].tables.map((t) => t.table)).toEqual([
      { schema: "public", name: "author" },
      { schema: "public", name: "article" },
      { schema: "public", name: "person" },
    ]);
    const e = errorOf(() => trackTable(md, { name: "author" }));
    expect(e.code).toBe("already-tracked");
    expect(e.status).toBe(400);
    expect(e.body()).toMatchObject({ path: "$.args", code: "already-tracked" });
  });

  it("never changes the metadata it is given", () => {
    const md = authorArticle();
    const snapshot = JSON.stringify(md);
    dropRelationship(md, { table: "author", relationship: "articles" });
    untrackTable(md, { table: "author", cascade: true });
    expect(JSON.stringify(md)).toBe(snapshot);
  });

  it("relationships need a tracked table and a unique name; an array relationship's foreign key is an object", () => {
    const md = authorArticle();
    expect(md.sources[0].tables[1].object_relationships).toEqual([{ name: "author", using: { foreign_key_constraint_on: "author_id" } }]);
    expect(errorOf(() => createObjectRelationship(md, { table: "article", name: "author", using: { foreign_key_constraint_on: "author_id" } })).code).toBe("already-exists");
    expect(errorOf(() => createObjectRelationship(md, { table: "nope", name: "x", using: { foreign_key_constraint_on: "y" } })).code).toBe("not-exists");
    const bad = errorOf(() => createArrayRelationship(md, { table: "author", name: "more", using: { foreign_key_constraint_on: "I should have been an object" } }));
    expect(bad.message).toBe("Expecting object { table, columns }.");
    const manual = createObjectRelationship(md, {
      table: "article",
      name: "writer",
      using: { manual_configuration: { remote_table: "author", column_mapping: { author_id: "id" } } },
    });
    expect(manual.sources[0].tables[1].object_relationships).toHaveLength(2);
  });

  it("permissions: one per role and type, never for admin, dropped by role", () => {
    let md = authorArticle();
    md = createSelectPermission(md, { table: "article", role: "user", permission: { columns: ["id", "title"], filter: { author_id: "X-Hasura-User-Id" } } });
    expect(md.sources[0].tables[1].select_permissions).toEqual([{ role: "user", permission: { columns: ["id", "title"], filter: { author_id: "X-Hasura-User-Id" } } }]);
    expect(errorOf(() => createSelectPermission(md, { table: "article", role: "user", permission: { columns: "*", filter: {} } })).code).toBe("already-exists");
    expect(errorOf(() => createSelectPermission(md, { table: "article", role: "admin", permission: { columns: "*", filter: {} } })).status).toBe(400);
    expect(errorOf(() => createSelectPermission(md, { table: "article", role: "x", permission: { filter: {} } })).code).toBe("parse-failed");
    md = dropSelectPermission(md, { table: "article", role: "user" });
    expect(md.sources[0].tables[1].select_permissions).toBeUndefined();
    expect(errorOf(() => dropSelectPermission(md, { table: "article", role: "user" })).code).toBe("not-exists");
  });

  it("dropping a relationship a permission uses needs cascade", () => {
    let md = authorArticle();
    md = createSelectPermission(md, { table: "author", role: "anonymous", permission: { columns: "*", filter: { $or: [{ articles: { is_published: { _eq: true } } }] } } });
    const e = errorOf(() => dropRelationship(md, { table: "author", relationship: "articles" }));
    expect(e.code).toBe("dependency-error");
    const next = dropRelationship(md, { table: "author", relationship: "articles", cascade: true });
    expect(next.sources[0].tables[0]).toEqual({ table: { schema: "public", name: "author" } });
  });

  it("untrack_table refuses while other tables point at it, unless cascade", () => {
    const md = authorArticle();
    expect(errorOf(() => untrackTable(md, { table: "article" })).code).toBe("dependency-error");
    const next = untrackTable(md, { table: "article", cascade: true });
    expect(next.sources[0].tables).toEqual([{ table: { schema: "public", name: "author" } }]);
  });

  it("clear_metadata empties the tables; replace_metadata takes v2 and v3 forms", () => {
    expect(clearMetadata(authorArticle()).sources[0].tables).toEqual([]);
    const v2 = normaliseMetadata({ version: 2, tables: [{ table: { schema: "public", name: "author" } }] });
    expect(v2).toEqual({ version: 3, sources: [{ name: "default", kind: "postgres", tables: [{ table: { schema: "public", name: "author" } }] }] });
    const v3 = normaliseMetadata({ metadata: authorArticle() });
    expect(v3.sources[0].tables).toHaveLength(2);
    expect(errorOf(() => normaliseMetadata({ version: 7, sources: [] })).code).toBe("parse-failed");
  });

  describe("after run_sql (reconcileWithCatalog)", () => {
    it("keeps the metadata object when nothing it names changed", () => {
      const md = authorArticle();
      expect(reconcileWithCatalog(md, catalog({ "public.author": ["id", "name"], "public.article": ["id", "author_id"] }, [articleFk]), false)).toBe(md);
    });

    it("drops tables that are gone, with the objects that lived on them", () => {
      const md = dropRelationship(authorArticle(), { table: "author", relationship: "articles" });
      const next = reconcileWithCatalog(md, catalog({ "public.author": ["id", "name"] }), false);
      expect(next.sources[0].tables).toEqual([{ table: { schema: "public", name: "author" } }]);
    });

    it("a drop that leaves a dependent relationship behind is an error unless cascade", () => {
      const md = authorArticle();
      const after = catalog({ "public.author": ["id", "name"] });
      const e = errorOf(() => reconcileWithCatalog(md, after, false));
      expect(e.code).toBe("dependency-error");
      expect(e.message).toContain("relationship author.articles");
      expect(reconcileWithCatalog(md, after, true).sources[0].tables).toEqual([{ table: { schema: "public", name: "author" } }]);
    });

    it("a permission naming a dropped column depends on it", () => {
      const md = createSelectPermission(authorArticle(), { table: "author", role: "user", permission: { columns: ["id", "name"], filter: { id: "X-Hasura-User-Id" } } });
      const after = catalog({ "public.author": ["id"], "public.article": ["id", "author_id"] }, [articleFk]);
      expect(errorOf(() => reconcileWithCatalog(md, after, false)).message).toContain("permission author.user.select");
    });
  });
});

describe("relationship foreign keys in canonical form", () => {
  it("reads `columns: x` on an array relationship as the single column x", () => {
    let md = trackTable(trackTable(empty(), "author"), "article");
    md = createArrayRelationship(md, { table: "author", name: "articles", using: { foreign_key_constraint_on: { table: "article", columns: "author_id" } } });
    expect(md.sources[0].tables[0].array_relationships).toEqual([
      { name: "articles", using: { foreign_key_constraint_on: { table: "article", column: "author_id" } } },
    ]);
  });
});
