/**
 * The policy editor's model: the live casbin CSV lines as a set of (role, object, action) grants that
 * the Roles screen toggles. Lines the grid does not show (groups, API rules) are kept as they are; a
 * data grant's row filter (the 4th value) and column list (the 5th) are kept when the grant stays on.
 */
import { splitLine } from "../../domain/policyText.ts";

export interface Grant {
  role: string;
  obj: string;
  act: string;
}

export const grantKey = (g: Grant) => `${g.role}\u0000${g.obj}\u0000${g.act}`;

export function grantOf(line: string): Grant | undefined {
  const t = line.trim();
  if (!t.startsWith("p")) return undefined;
  const [ptype, role, obj, act] = splitLine(t);
  if (ptype !== "p" || !role || !obj || !act) return undefined;
  return { role, obj, act };
}

export class PolicyGrid {
  private lines: string[];
  private readonly granted = new Set<string>();

  constructor(policy: string | readonly string[]) {
    this.lines = (Array.isArray(policy) ? [...policy] : String(policy).split(/\r?\n/)).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
    for (const l of this.lines) {
      const g = grantOf(l);
      if (g) this.granted.add(grantKey(g));
    }
  }

  has(g: Grant): boolean {
    return this.granted.has(grantKey(g));
  }

  /**
   * A grant with a row filter or a column list shows as "filtered" in the grid: one line with only a filter
   * shows the filter; otherwise each line (each its own rule) as "rows …, columns …", separated by " | ".
   */
  condition(g: Grant): string | undefined {
    const lines = this.lines.filter((l) => {
      const x = grantOf(l);
      return x && grantKey(x) === grantKey(g);
    });
    const rules = lines.map((l) => splitLine(l)).map((v) => ({ filter: v[4] || "", columns: v[5] || "" }));
    if (!rules.some((r) => r.filter || r.columns)) return undefined;
    if (rules.length === 1 && !rules[0]!.columns) return rules[0]!.filter;
    return rules.map((r) => `rows ${r.filter || "all"}${r.columns ? `, columns ${r.columns}` : ""}`).join(" | ");
  }

  set(g: Grant, on: boolean): PolicyGrid {
    const next = new PolicyGrid(this.lines);
    if (on && !next.has(g)) next.lines.push(`p, ${g.role}, ${g.obj}, ${g.act}`);
    if (!on) next.lines = next.lines.filter((l) => {
      const x = grantOf(l);
      return !x || grantKey(x) !== grantKey(g);
    });
    next.granted.clear();
    for (const l of next.lines) {
      const x = grantOf(l);
      if (x) next.granted.add(grantKey(x));
    }
    return next;
  }

  /** Objects of a kind named by any rule ("data:" → data:users, …). */
  objects(prefix: string): string[] {
    return [...new Set(this.lines.map(grantOf).filter((g): g is Grant => Boolean(g && g.obj.startsWith(prefix))).map((g) => g.obj))].sort();
  }

  text(): string {
    return this.lines.join("\n") + "\n";
  }
}
