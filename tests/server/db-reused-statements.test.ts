/**
 * Statements the server runs again and again (the engine's cached plans, the session check) are prepared
 * statements on PostgreSQL: parsed and planned once per connection, not on every request. Bounded, so a
 * stream of different queries cannot grow every connection without end. PostgreSQL lane only: PGlite has
 * one connection inside the worker and runs every statement as it comes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes, openTestDb } from "../support/db.ts";
import type { Db, Queryable } from "../../server/db/types.ts";
import { MAX_PREPARED_STATEMENTS } from "../../server/db/postgres.ts";

const postgresLanes = databaseLanes().filter((lane) => lane === "postgres");

const preparedOnThisConnection = async (tx: Queryable, text?: string) =>
  Number((await tx.query<{ n: string }>(`select count(*)::text as n from pg_prepared_statements where $1::text is null or statement = $1`, [text ?? null])).rows[0].n);

describe.runIf(postgresLanes.length > 0)("statements run again and again", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb("postgres");
  });
  afterAll(async () => {
    await db?.close();
  });

  it("a reused text is prepared on its second run and answers as before; other texts are not prepared", async () => {
    await db.transaction(async (tx) => {
      const text = `select json_build_object('n', $1::int) as json -- reused`;
      expect((await tx.query<{ json: unknown }>(text, [1], { reuse: true })).rows[0].json).toEqual({ n: 1 });
      expect(await preparedOnThisConnection(tx, text)).toBe(0);
      expect((await tx.query<{ json: unknown }>(text, [2], { reuse: true })).rows[0].json).toEqual({ n: 2 });
      expect(await preparedOnThisConnection(tx, text)).toBe(1);
      expect((await tx.query<{ json: unknown }>(text, [3], { reuse: true })).rows[0].json).toEqual({ n: 3 });
      expect(await preparedOnThisConnection(tx, text)).toBe(1);

      const plain = `select json_build_object('m', $1::int) as json -- not reused`;
      for (const m of [1, 2, 3]) expect((await tx.query<{ json: unknown }>(plain, [m])).rows[0].json).toEqual({ m });
      expect(await preparedOnThisConnection(tx, plain)).toBe(0);
    });
  });

  it(`a connection holds at most ${MAX_PREPARED_STATEMENTS}; texts beyond run unnamed and still answer`, async () => {
    await db.transaction(async (tx) => {
      for (let i = 0; i < MAX_PREPARED_STATEMENTS + 40; i++) {
        const text = `select $1::int + ${i} as n -- text ${i}`;
        for (const run of [1, 2]) expect((await tx.query<{ n: number }>(text, [run], { reuse: true })).rows[0].n).toBe(run + i);
      }
      expect(await preparedOnThisConnection(tx)).toBeLessThanOrEqual(MAX_PREPARED_STATEMENTS);
      expect(await preparedOnThisConnection(tx, `select $1::int + ${MAX_PREPARED_STATEMENTS + 39} as n -- text ${MAX_PREPARED_STATEMENTS + 39}`)).toBe(0);
    });
  });

  it("a prepared statement follows its table when the table changes", async () => {
    await db.exec(`create table reuse_probe (id int primary key)`);
    try {
      const text = `select coalesce(json_agg(r order by r.id), '[]') as json from reuse_probe r where r.id >= $1`;
      await db.transaction(async (tx) => {
        await tx.query(`insert into reuse_probe values (1)`);
        for (const _ of [1, 2]) expect((await tx.query<{ json: unknown }>(text, [0], { reuse: true })).rows[0].json).toEqual([{ id: 1 }]);
        await tx.query(`alter table reuse_probe add column label text default 'new'`);
        expect((await tx.query<{ json: unknown }>(text, [0], { reuse: true })).rows[0].json).toEqual([{ id: 1, label: "new" }]);
      });
    } finally {
      await db.exec(`drop table reuse_probe`);
    }
  });
});
