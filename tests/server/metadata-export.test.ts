/**
 * `npm run metadata:export`: the metadata a real Hasura in front of the same database needs — every
 * tracked table with the permissions the live access policy generates. Checked the strongest way we can
 * here: an engine given only the exported metadata (no policy) answers every role exactly as the server
 * does, row counts of every table the role may read and the refusal of one it may not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes, openTestDb } from "../support/db.ts";
import { STAFF_ROLES } from "../support/auth.ts";
import { testConfig } from "./graphql-helpers.ts";
import { buildMetadataExport, parseOut, type MetadataExport } from "../../server/metadata-export-cli.ts";
import { createPolicy } from "../../server/auth/policy/index.ts";
import { createEngine } from "../../server/graphql/engine.ts";
import type { GeneratedPermissions, Session } from "../../server/auth/types.ts";
import type { Db } from "../../server/db/types.ts";

const session = (userId: string, role: string): Session => ({ roles: [role], isAdmin: false, userId, variables: { "x-hasura-user-id": userId } });

describe.each(databaseLanes())("metadata export for a real Hasura [%s]", (lane) => {
  let db: Db;
  let exported: MetadataExport;
  let generated: GeneratedPermissions;
  const userIds: Record<string, string> = {};
  beforeAll(async () => {
    db = await openTestDb(lane);
    const config = testConfig();
    exported = await buildMetadataExport(db, config);
    const policy = await createPolicy({ db, config, migrations: 0 });
    generated = policy.hasuraPermissions();
    await policy.close();
    const { rows } = await db.query<{ id: string; username: string }>(`select id, username from users where username = any($1)`, [[...STAFF_ROLES]]);
    for (const r of rows) userIds[r.username] = r.id;
  });
  afterAll(async () => {
    await db?.close();
  });

  it("is a replace_metadata body holding every generated permission", () => {
    expect(exported).toMatchObject({ type: "replace_metadata", version: 2, args: { metadata: { version: 3 } } });
    const tables = exported.args.metadata.sources[0]!.tables;
    let checked = 0;
    for (const [role, perTable] of Object.entries(generated)) {
      for (const [table, kinds] of Object.entries(perTable)) {
        const name = table.replace(/^public\./, "");
        const meta = tables.find((t) => t.table.name === name);
        expect(meta, table).toBeDefined();
        for (const kind of ["select", "insert", "update", "delete"] as const) {
          const list = (meta![`${kind}_permissions`] ?? []) as { role: string; permission: unknown }[];
          if (kinds[kind]) {
            // Hasura holds one permission per role: the union of the role's rules, without the engine's per-rule list.
            const { rules: _rules, ...hasuraForm } = kinds[kind] as { rules?: unknown };
            expect(list.find((p) => p.role === role)?.permission, `${role} ${kind} ${table}`).toEqual(hasuraForm);
            expect(JSON.stringify(list.find((p) => p.role === role)?.permission)).not.toContain('"rules"');
            checked++;
          } else expect(list.some((p) => p.role === role), `${role} ${kind} ${table}`).toBe(false);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("an engine given only the exported metadata serves every role as the server does", async () => {
    const config = testConfig();
    // one aggregate per readable table, in queries under the engine's alias limit
    const countsQueries = (role: string) => {
      const fields = Object.keys(generated[role] ?? {})
        .filter((t) => generated[role]![t]!.select)
        .map((t, i) => `t${i}: ${t.replace(/^public\./, "")}_aggregate { aggregate { count } }`);
      const queries: string[] = [];
      for (let i = 0; i < fields.length; i += 40) queries.push(`{ ${fields.slice(i, i + 40).join(" ")} }`);
      return queries;
    };
    const counts = async (engine: Awaited<ReturnType<typeof createEngine>>, s: ReturnType<typeof session>) => {
      const data: Record<string, unknown> = {};
      for (const query of countsQueries(s.roles[0]!)) {
        const body = (await engine.execute({ query }, s)).body as { data?: Record<string, unknown>; errors?: unknown };
        if (body.errors) return body;
        Object.assign(data, body.data);
      }
      return { data };
    };
    const answers = async (engine: Awaited<ReturnType<typeof createEngine>>) => {
      const out: Record<string, unknown> = {};
      for (const role of STAFF_ROLES) {
        const s = session(userIds[role]!, role);
        out[role] = await counts(engine, s);
        // a table outside every rule of the role (the backend's casbin_rule is never served)
        out[`${role} refused`] = (await engine.execute({ query: `{ enquiries(limit: 1) { id } }` }, s)).body;
      }
      return out;
    };

    const live = await createEngine({ db, config });
    live.setGeneratedPermissions(generated);
    const expected = await answers(live);
    await live.close();

    const hasura = await createEngine({ db, config });
    await hasura.replaceMetadata(exported.args.metadata);
    const got = await answers(hasura);
    await hasura.close();

    for (const role of STAFF_ROLES) {
      expect((expected[role] as { errors?: unknown }).errors, role).toBeUndefined();
      expect(got[role], role).toEqual(expected[role]);
      expect(got[`${role} refused`], role).toEqual(expected[`${role} refused`]);
    }
    // the tutors' row filters are in: a tutor counts fewer lessons than the head of department
    const lessons = (role: string) => {
      const i = Object.keys(generated[role]!).filter((t) => generated[role]![t]!.select).findIndex((t) => t.replace(/^public\./, "") === "lessons");
      return ((got[role] as { data: Record<string, { aggregate: { count: number } }> }).data[`t${i}`]!).aggregate.count;
    };
    expect(lessons("fulltime_tutor")).toBeLessThan(lessons("hod"));
  });

  it("declares an inherited role for each set of roles a user holds, so a real Hasura answers them with the union", async () => {
    expect(exported.args.metadata.inherited_roles).toContainEqual({ role_name: "front_desk+hod", role_set: ["front_desk", "hod"] });
    const { rows } = await db.query<{ id: string }>(`select id from users where username = 'multi_role'`);
    const userId = rows[0]!.id;
    const tables = [...new Set(["front_desk", "hod"].flatMap((r) => Object.keys(generated[r] ?? {}).filter((t) => generated[r]![t]!.select)))];
    const queries: string[] = [];
    for (let i = 0; i < tables.length; i += 40) queries.push(`{ ${tables.slice(i, i + 40).map((t, j) => `t${i + j}: ${t.replace(/^public\./, "")}_aggregate { aggregate { count } }`).join(" ")} }`);
    const answer = async (engine: Awaited<ReturnType<typeof createEngine>>, roles: string[]) => {
      const out: unknown[] = [];
      for (const query of queries) out.push((await engine.execute({ query }, { roles, isAdmin: false, userId, variables: { "x-hasura-user-id": userId } })).body);
      return out;
    };
    const config = testConfig();
    const live = await createEngine({ db, config });
    live.setGeneratedPermissions(generated);
    const expected = await answer(live, ["front_desk", "hod"]);
    await live.close();
    const hasura = await createEngine({ db, config });
    await hasura.replaceMetadata(exported.args.metadata);
    const got = await answer(hasura, ["front_desk+hod"]);
    await hasura.close();
    expect(JSON.stringify(expected)).not.toContain('"errors"');
    expect(got).toEqual(expected);
  });
});

describe("metadata:export arguments", () => {
  it("--out takes a file name", () => {
    expect(parseOut(["--out", "metadata.json"])).toBe("metadata.json");
    expect(parseOut([])).toBeUndefined();
    expect(() => parseOut(["--out"])).toThrow("--out needs a file name");
  });
});
