import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/types.ts";
import { openPglite } from "../../server/db/pglite.ts";
import { migrate, readMigrations } from "../../server/db/migrate.ts";
import { databaseLanes, openTestDb } from "../support/db.ts";

const BACKEND_TABLES = ["casbin_rule", "policy_changes", "user_credentials", "refresh_tokens", "password_reset_codes", "signing_keys", "outbox", "media_objects", "document_counters"];

// logs and the ledger are append-only history: no soft deletion
const LOG_TABLES = ["payment_advice_logs", "credit_note_logs", "refund_logs", "journal_entries", "journal_lines"];

/** Every enumeration of the spec, with exactly its values (spec part 1 §3–§4, part 2 §3–§4, §9). */
const ROLES = ["admin", "front_desk", "ops_manager", "hr", "finance_staff", "finance_manager", "attendance_checker", "sales", "intern", "fulltime_tutor", "parttime_tutor", "hod", "student", "parent", "tutor"];
const CATEGORY_CODES = ["regular", "double_lesson", "special", "others"];
const REQUEST_STATUSES = ["pending", "completed", "rejected", "cancelled"];
const LOG_ACTIONS = ["create", "update", "change_status", "duplicate"];
const PAYMENT_METHODS = ["cheque", "cash", "credit_card", "nets", "interbank_transfer", "sponsorship", "credit_note", "qr_code", "axs", "absorbed_by_company_as_expense"];
const CARD_TYPES = ["normal", "visa", "master", "amex", "union_pay"];
const INVOICE_STATUSES = ["active", "voided", "paid", "partial_payment", "overpaid", "payment_online"];

interface EnumCase {
  table: string;
  column: string;
  values: string[];
  /** jsonb array columns: the values are the allowed elements. */
  jsonArray?: boolean;
  /** numeric CHECK (gst) */
  numeric?: boolean;
}
const ENUMS: EnumCase[] = [
  { table: "users", column: "status", values: ["deleted", "active", "locked", "pending", "disabled", "inactive", "draft"] },
  { table: "users", column: "type", values: ["admin", "student", "tutor"] },
  { table: "users", column: "role", values: ROLES },
  { table: "users", column: "multipleRoles", values: ROLES, jsonArray: true },
  { table: "roles", column: "name", values: ROLES },
  { table: "student_classes", column: "status", values: ["enrolled", "transferred", "replacement", "suspended", "withdrawn", "withdrawal", "pending", "returned", "completed", "has_been_transferred", "has_been_replaced", "voided", "deleted"] },
  { table: "student_classes", column: "type", values: ["transferred", "withdrawn", "enrollment"] },
  { table: "student_classes", column: "action", values: ["enroll_last_partial", "transfer", "replace"] },
  { table: "lessons_students", column: "type", values: ["enrolled", "transferred", "replacement", "withdrawal", "has_been_replaced", "has_been_transferred"] },
  { table: "lessons_students", column: "status", values: ["not_attended", "attended", "withdrawn", "suspended", "deleted"] },
  { table: "lessons", column: "lessonStatus", values: ["active", "cancel", "deleted"] },
  { table: "categories", column: "code", values: CATEGORY_CODES },
  { table: "categories", column: "abbreviation", values: ["R", "DB", "S", "O"] },
  { table: "programs", column: "category", values: CATEGORY_CODES },
  { table: "classes", column: "classStatus", values: ["new", "open", "closed"] },
  { table: "classes", column: "classType", values: ["special", "regular", "double_lesson", "others"] },
  { table: "classes", column: "lessonType", values: CATEGORY_CODES },
  { table: "classes", column: "classTier", values: ["BL1", "BL2", "BL3", "BL4"] },
  { table: "program_types", column: "code", values: ["WLWD", "WLWE", "DBWD", "DBWE"] },
  { table: "academic_calendars", column: "category", values: ["weekly", "monthly", "custom"] },
  { table: "request_transfer_classes", column: "transferClassStatus", values: REQUEST_STATUSES },
  { table: "suspensions", column: "suspensionStatus", values: REQUEST_STATUSES },
  { table: "withdrawals", column: "withdrawalStatus", values: REQUEST_STATUSES },
  { table: "payment_advices", column: "paymentStatus", values: ["draft", "overdue", "paid", "unpaid", "voided", "overpaid", "withdrawn"] },
  { table: "payment_advices", column: "gst", values: ["0", "7", "8", "9"], numeric: true },
  { table: "invoices", column: "invoiceStatus", values: INVOICE_STATUSES },
  { table: "receipts", column: "status", values: [...INVOICE_STATUSES, "deleted"] },
  { table: "receipts", column: "paymentMethod", values: PAYMENT_METHODS },
  { table: "receipts", column: "cardType", values: CARD_TYPES },
  { table: "invoice_payments", column: "paymentMethod", values: PAYMENT_METHODS },
  { table: "invoice_payments", column: "cardType", values: CARD_TYPES },
  { table: "invoice_payments", column: "transactionStatus", values: ["fail", "success", "in_progress"] },
  { table: "credit_notes", column: "creditNoteStatus", values: ["delete", "used", "voided", "rejected", "issued", "awaiting_front_desk_action", "awaiting_finance_action", "awaiting_finance_approval"] },
  { table: "credit_notes", column: "type", values: ["suspension", "overpaid"] },
  { table: "refunds", column: "refundStatus", values: ["rejected_by_sale", "rejected_by_finance", "refunded", "awaiting_front_desk_action", "awaiting_sale_action", "awaiting_finance_approval"] },
  { table: "refunds", column: "type", values: ["withdrawal"] },
  { table: "refunds", column: "refundMethod", values: ["pay now", "cheque", "interbank transfer", "no refund fee"] },
  { table: "refunds", column: "rating", values: ["great", "average", "good", "not good"] },
  { table: "deposits", column: "depositStatus", values: ["issued", "used", "paid", "refunded"] },
  { table: "discounts", column: "type", values: ["referral_discount", "sibling_discount", "we_chat", "power_pack", "exclusive_principal", "full_annual_payment", "semi_annual_payment", "off_subsequence_subject", "super_early_bird_sign_up", "early_bird_sign_up", "make_the_switch"] },
  { table: "payment_advice_logs", column: "type", values: LOG_ACTIONS },
  { table: "credit_note_logs", column: "type", values: LOG_ACTIONS },
  { table: "refund_logs", column: "type", values: LOG_ACTIONS },
  { table: "broadcasts", column: "via", values: ["email", "sms", "notification"], jsonArray: true },
  { table: "outbox", column: "channel", values: ["email", "sms", "notification"] },
  { table: "outbox", column: "status", values: ["pending", "sent", "failed"] },
  { table: "document_counters", column: "documentType", values: ["payment_advice", "invoice", "receipt", "credit_note", "refund", "deposit"] },
  // soft deletion on the other tables
  { table: "classes", column: "status", values: ["active", "deleted"] },
  { table: "payment_advices", column: "status", values: ["active", "deleted"] },
];

/** The string literals of the CHECK constraints mentioning a column (or the jsonb array literal's elements). */
async function checkLiterals(db: Db, table: string, column: string): Promise<Set<string>> {
  const r = await db.query<{ def: string }>(
    `select pg_get_constraintdef(c.oid) as def from pg_constraint c
     where c.conrelid = $1::regclass and c.contype = 'c' and array_length(c.conkey, 1) = 1
       and c.conkey[1] = (select attnum from pg_attribute where attrelid = $1::regclass and attname = $2)`,
    [`public.${table}`, column],
  );
  const out = new Set<string>();
  for (const { def } of r.rows) {
    const jsonArr = /'(\[.*?\])'::jsonb/.exec(def);
    if (jsonArr) for (const v of JSON.parse(jsonArr[1]) as string[]) out.add(v);
    else if (/= ANY|= '/.test(def)) {
      for (const m of def.matchAll(/'((?:[^']|'')*)'::(?:text|character varying)/g)) out.add(m[1].replace(/''/g, "'"));
      for (const m of def.matchAll(/\(?(\d+(?:\.\d+)?)\)?::numeric/g)) out.add(String(Number(m[1])));
    }
  }
  return out;
}

async function expectCheckViolation(db: Db, sql: string, params: unknown[]) {
  let error: unknown;
  try {
    await db.transaction(async (tx) => {
      await tx.query(sql, params);
    });
  } catch (e) {
    error = e;
  }
  expect(error, `expected a CHECK violation for ${sql} ${JSON.stringify(params)}`).toBeDefined();
  expect((error as { code?: string }).code).toBe("23514");
}

class Rollback extends Error {}

describe("migrations on a fresh empty PGlite", () => {
  it("apply every migration once, then nothing", async () => {
    const files = await readMigrations();
    expect(files.length).toBeGreaterThanOrEqual(6);
    const db = await openPglite();
    try {
      const first = await migrate(db);
      expect(first.applied).toEqual(files.map((f) => f.version));
      expect(first.total).toBe(files.length);
      const second = await migrate(db);
      expect(second.applied).toEqual([]);
      expect(second.total).toBe(files.length);
      const tables = await db.query<{ n: number }>("select count(*)::int as n from pg_tables where schemaname = 'public'");
      expect(tables.rows[0].n).toBeGreaterThanOrEqual(70);
    } finally {
      await db.close();
    }
  });
});

for (const lane of databaseLanes()) {
  describe(`schema (${lane})`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await openTestDb(lane);
    });
    afterAll(async () => {
      await db?.close();
    });

    it("has every migration recorded and re-running migrate applies nothing", async () => {
      const files = await readMigrations();
      const recorded = await db.query<{ v: string }>("select version::text as v from hdb_catalog.schema_migrations order by version");
      expect(recorded.rows.map((r) => r.v)).toEqual(files.map((f) => f.version));
      const again = await migrate(db);
      expect(again.applied).toEqual([]);
      expect(again.total).toBe(files.length);
    });

    it("gives every spec table a uuid id, the audit columns and an updatedAt trigger", async () => {
      const tables = (await db.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public' order by 1")).rows.map((r) => r.t);
      const spec = tables.filter((t) => !BACKEND_TABLES.includes(t));
      expect(spec.length).toBeGreaterThanOrEqual(60);
      const cols = await db.query<{ t: string; c: string; type: string }>(
        "select table_name as t, column_name as c, data_type as type from information_schema.columns where table_schema = 'public'",
      );
      const has = (t: string, c: string, type?: string) => cols.rows.some((r) => r.t === t && r.c === c && (!type || r.type === type));
      const triggers = await db.query<{ t: string }>("select tgrelid::regclass::text as t from pg_trigger where tgname = 'set_updated_at'");
      const withTrigger = new Set(triggers.rows.map((r) => r.t));
      for (const t of spec) {
        expect(has(t, "id", "uuid"), `${t}.id`).toBe(true);
        for (const c of ["createdAt", "updatedAt"]) expect(has(t, c, "timestamp with time zone"), `${t}.${c}`).toBe(true);
        for (const c of ["createdBy", "updatedBy"]) expect(has(t, c, "uuid"), `${t}.${c}`).toBe(true);
        // logs are append-only history: no soft deletion
        if (!LOG_TABLES.includes(t)) expect(has(t, "status"), `${t}.status`).toBe(true);
        expect(withTrigger.has(t), `${t} updatedAt trigger`).toBe(true);
      }
    });

    it("keeps updatedAt current on update", async () => {
      const before = (await db.query<{ id: string; u: string }>(`select id, "updatedAt"::text as u from companies order by name limit 1`)).rows[0];
      await db.query(`update companies set "updatedAt" = now() - interval '1 day' where id = $1`, [before.id]);
      await db.query(`update companies set "telNo" = "telNo" where id = $1`, [before.id]);
      const after = (await db.query<{ fresh: boolean }>(`select "updatedAt" > now() - interval '1 minute' as fresh from companies where id = $1`, [before.id])).rows[0];
      expect(after.fresh).toBe(true);
    });

    it("indexes the default sort and the foreign keys", async () => {
      const idx = await db.query<{ t: string; def: string }>("select tablename as t, indexdef as def from pg_indexes where schemaname = 'public'");
      const tables = (await db.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public'")).rows.map((r) => r.t).filter((t) => !BACKEND_TABLES.includes(t));
      for (const t of tables) expect(idx.rows.some((r) => r.t === t && r.def.includes('"updatedAt" DESC')), `${t} updatedAt index`).toBe(true);
      const fks = await db.query<{ t: string; c: string }>(
        `select k.conrelid::regclass::text as t, a.attname as c from pg_constraint k
         join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
         where k.contype = 'f' and k.connamespace = 'public'::regnamespace and array_length(k.conkey, 1) = 1`,
      );
      for (const fk of fks.rows) {
        const leading = idx.rows.some((r) => r.t === fk.t && new RegExp(`\\((?:"${fk.c}"|${fk.c})[,)\\s]`).test(r.def));
        expect(leading, `index on ${fk.t}.${fk.c}`).toBe(true);
      }
      expect(idx.rows.some((r) => r.t === "users" && /UNIQUE.*lower\(username\)/.test(r.def))).toBe(true);
    });

    it("usernames are unique regardless of case", async () => {
      let error: unknown;
      try {
        await db.query(`insert into users (username, type) values ('ADMIN', 'admin')`);
      } catch (e) {
        error = e;
      }
      expect((error as { code?: string }).code).toBe("23505");
    });

    it("issued document numbers are unique per company", async () => {
      const pa = (await db.query<{ name: string; companyId: string; studentId: string }>(`select name, "companyId", "studentId" from payment_advices where name is not null limit 1`)).rows[0];
      let error: unknown;
      try {
        await db.query(`insert into payment_advices (name, "companyId", "studentId") values ($1, $2, $3)`, [pa.name, pa.companyId, pa.studentId]);
      } catch (e) {
        error = e;
      }
      expect((error as { code?: string }).code).toBe("23505");
    });

    it("a period may not end before it starts (an open end passes)", async () => {
      const periods = [
        ["holidays", "startTime", "endTime"],
        ["classes", "startDate", "endDate"],
        ["discounts", "startDate", "endDate"],
        ["posts", "startDate", "endDate"],
        ["lesson_sessions", "startTime", "endTime"],
        ["terms", "startDate", "endDate"],
        ["suspensions", "startDate", "endDate"],
        ["credit_note_classes", "startDate", "endDate"],
      ] as const;
      for (const [table, start, end] of periods) {
        const row = (await db.query<{ id: string }>(`select id from public.${table} where "${start}" is not null limit 1`)).rows[0];
        if (row) {
          await expectCheckViolation(db, `update public.${table} set "${end}" = "${start}" - interval '1 minute' where id = $1`, [row.id]);
          await expect(
            db.transaction(async (tx) => {
              await tx.query(`update public.${table} set "${end}" = "${start}" where id = $1`, [row.id]);
              await tx.query(`update public.${table} set "${end}" = null where id = $1`, [row.id]).catch((e: { code?: string }) => {
                if (e.code !== "23502") throw e; // a required end
              });
              throw new Rollback();
            }),
          ).rejects.toBeInstanceOf(Rollback);
        } else {
          // no demo row: the constraint is there all the same
          const def = await db.query<{ def: string }>(
            `select pg_get_constraintdef(c.oid) as def from pg_constraint c join pg_class t on t.oid = c.conrelid where t.relname = $1 and c.contype = 'c'`,
            [table],
          );
          expect(def.rows.map((r) => r.def), table).toContain(`CHECK (("${end}" >= "${start}"))`);
        }
      }
    });

    it("a reference record in use is not deleted; one nothing uses is", async () => {
      const used = [
        ["categories", `select "categoryId" as id from program_types where status <> 'deleted' limit 1`],
        ["program_types", `select "programTypeId" as id from programs where status <> 'deleted' and "programTypeId" is not null limit 1`],
        ["levels", `select "levelId" as id from curriculums_levels limit 1`],
      ] as const;
      for (const [table, sql] of used) {
        const id = (await db.query<{ id: string }>(sql)).rows[0]?.id;
        expect(id, table).toBeDefined();
        await expect(db.query(`update public.${table} set status = 'deleted' where id = $1`, [id]), table).rejects.toThrow("This record is in use and cannot be deleted");
        expect((await db.query<{ status: string }>(`select status from public.${table} where id = $1`, [id])).rows[0]!.status, table).toBe("active");
      }
      await expect(
        db.transaction(async (tx) => {
          const { rows } = await tx.query<{ id: string }>(`insert into subjects (name) values ('Unused subject') returning id`);
          await tx.query(`update subjects set status = 'deleted' where id = $1`, [rows[0]!.id]);
          expect((await tx.query<{ status: string }>(`select status from subjects where id = $1`, [rows[0]!.id])).rows[0]!.status).toBe("deleted");
          throw new Rollback();
        }),
      ).rejects.toBeInstanceOf(Rollback);
    });

    describe("each enumeration holds exactly the spec's values", () => {
      for (const e of ENUMS) {
        it(`${e.table}.${e.column}`, async () => {
          const literals = await checkLiterals(db, e.table, e.column);
          expect([...literals].sort()).toEqual([...e.values].sort());

          const bad = e.numeric ? 5 : e.jsonArray ? JSON.stringify(["not_in_spec"]) : "not_in_spec";
          const key = e.table === "document_counters" ? `"companyId"::text || year || "documentType"` : "id::text";
          {
            const target = (await db.query<{ k: string }>(`select ${key} as k from public.${e.table} limit 1`)).rows[0]?.k;
            if (target !== undefined) {
              const set = e.jsonArray ? `"${e.column}" = $1::jsonb` : `"${e.column}" = $1`;
              await expectCheckViolation(db, `update public.${e.table} set ${set} where ${key} = $2`, [bad, target]);
              // every spec value is accepted (rolled back afterwards)
              await expect(
                db.transaction(async (tx) => {
                  for (const v of e.values) {
                    const value = e.numeric ? Number(v) : e.jsonArray ? JSON.stringify([v]) : v;
                    await tx.query(`savepoint s`);
                    try {
                      await tx.query(`update public.${e.table} set ${set} where ${key} = $2`, [value, target]);
                    } catch (err) {
                      // a unique index may refuse a duplicate (roles.name): that is not the CHECK
                      if ((err as { code?: string }).code !== "23505") throw err;
                    }
                    await tx.query(`rollback to savepoint s`);
                  }
                  throw new Rollback();
                }),
              ).rejects.toBeInstanceOf(Rollback);
              return;
            }
          }
          // empty table (outbox): insert instead
          await expectCheckViolation(db, `insert into public.outbox (recipient, "${e.column}") values ('x', $1)`, [bad]);
        });
      }
    });
  });
}
