/** Small helpers shared by the demo seed and the scale generator: deterministic randomness, batch inserts, money and dates. */
import type { Queryable } from "./types.ts";

/** mulberry32: a small, fast, seeded PRNG, so every seed run produces the same data. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** n distinct items (or all when fewer). */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, Math.min(n, copy.length));
  }
  /** A version-4-shaped uuid drawn from this generator (deterministic). */
  uuid(): string {
    const hex: string[] = [];
    for (let i = 0; i < 4; i++) hex.push(Math.floor(this.next() * 4294967296).toString(16).padStart(8, "0"));
    const h = hex.join("");
    const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

export type Row = Record<string, unknown>;

/**
 * Inserts rows in batches through json_populate_recordset: one parameter per batch (the rows as
 * JSON text), so thousands of rows cost one statement. Rows are grouped by their set of keys; only
 * the keys present are written, so the other columns keep their defaults. jsonb values are given
 * as JS objects/arrays; money as numeric strings; dates as YYYY-MM-DD.
 */
export async function insertRows(tx: Queryable, table: string, rows: Row[], batchSize = 2000): Promise<void> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = Object.keys(row).join(",");
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(row);
  }
  for (const group of groups.values()) {
    const list = Object.keys(group[0]).map((c) => `"${c}"`).join(", ");
    for (let i = 0; i < group.length; i += batchSize) {
      await tx.query(
        `insert into public.${table} (${list}) select ${list} from json_populate_recordset(null::public.${table}, $1::text::json)`,
        [JSON.stringify(group.slice(i, i + batchSize))],
      );
    }
  }
}

/** Integer cents → numeric text with two decimals ("1234.50"); no float arithmetic. */
export function money(cents: number): string {
  if (!Number.isInteger(cents)) throw new Error(`money() needs integer cents, got ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Percentage of an amount in cents, rounded half up to the cent (integer maths). */
export function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent * 100 + 5000) / 10000);
}

/** Calendar days as YYYY-MM-DD strings, computed in UTC (no time-zone drift). */
export function day(year: number, month: number, date: number): string {
  return new Date(Date.UTC(year, month - 1, date)).toISOString().slice(0, 10);
}
export function addDays(d: string, n: number): string {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}
export function weekday(d: string): number {
  return new Date(`${d}T00:00:00Z`).getUTCDay();
}
/** Today in Asia/Singapore (UTC+8, no daylight saving). */
export function todaySg(now = new Date()): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}
/** A Singapore wall-clock time on a day, as an ISO instant. */
export function sgTime(d: string, hhmm: string): string {
  return new Date(`${d}T${hhmm}:00+08:00`).toISOString();
}
