/**
 * The access policy's rules as data: parsing the casbin CSV form, checking every line, writing it back.
 * Pure functions (no database, no casbin) so they are testable alone and usable in the browser.
 */
import { MENU_TREE } from "../../../src/domain/menu.ts";

export interface Rule {
  ptype: "p" | "g";
  /** v0…v5 of casbin_rule: p = sub, obj, act[, cond[, columns]]; g = role, group. */
  values: string[];
}

/** The spec's roles (part 1 §6), the account roles, and the pseudo-role of callers without a token. */
export const STAFF_ROLES = [
  "front_desk", "ops_manager", "hr", "finance_staff", "finance_manager", "attendance_checker",
  "sales", "intern", "fulltime_tutor", "parttime_tutor", "hod",
] as const;
export const ACCOUNT_ROLES = ["student", "parent", "tutor"] as const;
export const ANONYMOUS = "anonymous";
export const KNOWN_ROLES: readonly string[] = ["admin", ...STAFF_ROLES, ...ACCOUNT_ROLES, ANONYMOUS];

export const DATA_ACTIONS = ["select", "insert", "update", "delete"] as const;
export type DataAction = (typeof DATA_ACTIONS)[number];
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const MENU_LABELS = new Set(MENU_TREE.map((g) => g.label));

export class PolicyError extends Error {}

/** Splits one CSV line: commas outside double quotes; "…" fields with "" for a quote; fields trimmed. */
export function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    while (line[i] === " " || line[i] === "\t") i++;
    if (line[i] === '"') {
      let value = "";
      i++;
      for (;;) {
        if (i >= line.length) throw new PolicyError("unterminated quoted field");
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += line[i++];
      }
      while (line[i] === " " || line[i] === "\t") i++;
      if (i < line.length && line[i] !== ",") throw new PolicyError("text after a quoted field");
      fields.push(value);
      i++;
    } else {
      const end = line.indexOf(",", i);
      const stop = end === -1 ? line.length : end;
      fields.push(line.slice(i, stop).trim());
      i = stop + 1;
    }
  }
  return fields;
}

function csvField(value: string): string {
  return /^[\s"]|[,\n]|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One rule as a casbin CSV line. */
export function ruleToLine(rule: Rule): string {
  return [rule.ptype, ...rule.values].map(csvField).join(", ");
}

export function rulesToCsv(rules: readonly Rule[]): string {
  return rules.map(ruleToLine).join("\n") + (rules.length ? "\n" : "");
}

export interface ParseOptions {
  /** Tables a data rule may name; others are refused (backend tables are never data tables). */
  dataTables?: ReadonlySet<string>;
}

/**
 * Parses and checks a whole policy; throws PolicyError naming the first bad line. Duplicates are dropped.
 * Checks: the line form, known roles (or groups declared by a g line), the object kinds and their
 * actions, menu labels, JSON row filters, and data tables when `dataTables` is given.
 */
export function parsePolicy(text: string, options: ParseOptions = {}): Rule[] {
  const lines = text.split(/\r?\n/);
  const parsed: { rule: Rule; line: number }[] = [];
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    let fields: string[];
    try {
      fields = splitCsvLine(line);
    } catch (e) {
      throw new PolicyError(`Line ${index + 1}: ${(e as Error).message}: ${line}`);
    }
    const [ptype, ...values] = fields;
    if (ptype !== "p" && ptype !== "g") throw new PolicyError(`Line ${index + 1}: a rule starts with "p" or "g": ${line}`);
    if (values.length > 6) throw new PolicyError(`Line ${index + 1}: too many fields: ${line}`);
    parsed.push({ rule: { ptype, values }, line: index + 1 });
  });

  const groups = new Set(parsed.filter((r) => r.rule.ptype === "g").map((r) => r.rule.values[1]));
  const isRole = (name: string) => KNOWN_ROLES.includes(name) || groups.has(name);
  const seen = new Set<string>();
  const rules: Rule[] = [];
  for (const { rule, line } of parsed) {
    const fail = (why: string): never => {
      throw new PolicyError(`Line ${line}: ${why}: ${ruleToLine(rule)}`);
    };
    const v = rule.values;
    if (v.slice(0, rule.ptype === "g" ? 2 : 3).some((x) => !x)) fail("empty field");
    if (rule.ptype === "g") {
      if (v.length !== 2) fail('a group line is "g, <role>, <group>"');
      if (!KNOWN_ROLES.includes(v[0]) && !groups.has(v[0])) fail(`unknown role "${v[0]}"`);
      if (!/^[a-z][a-z0-9_]*$/.test(v[1])) fail(`bad group name "${v[1]}"`);
      if (v[1] === "admin" || v[1] === ANONYMOUS) fail(`"${v[1]}" cannot be used as a group`);
    } else {
      if (v.length < 3 || v.length > 5) fail('a rule is "p, <role>, <object>, <action>[, <row filter>[, <columns>]]"');
      const [sub, obj, act, cond, columns] = v;
      if (columns !== undefined && !obj.startsWith("data:")) fail("only data rules take a column list");
      if (!isRole(sub)) fail(`unknown role "${sub}"`);
      if (obj.startsWith("/")) {
        if (act !== "view") fail('a route takes the action "view"');
        if (cond !== undefined) fail("only data rules take a row filter");
      } else if (obj.startsWith("menu:")) {
        if (!MENU_LABELS.has(obj.slice(5))) fail(`unknown menu entry "${obj.slice(5)}"`);
        if (act !== "show") fail('a menu entry takes the action "show"');
        if (cond !== undefined) fail("only data rules take a row filter");
      } else if (obj.startsWith("api:")) {
        if (!obj.startsWith("api:/")) fail("an API object is api:/path");
        if (!HTTP_METHODS.includes(act)) fail(`an API rule takes an HTTP method (${HTTP_METHODS.join(", ")})`);
        if (cond !== undefined) fail("only data rules take a row filter");
      } else if (obj.startsWith("data:")) {
        const table = obj.slice(5);
        if (!/^[a-z_][a-z0-9_]*$/.test(table)) fail(`bad table name "${table}"`);
        if (options.dataTables && !options.dataTables.has(table)) fail(`unknown table "${table}"`);
        if (!(DATA_ACTIONS as readonly string[]).includes(act)) fail(`a data rule takes ${DATA_ACTIONS.join(", ")}`);
        if (cond !== undefined && cond !== "") {
          let filter: unknown;
          try {
            filter = JSON.parse(cond);
          } catch {
            fail("the row filter is not valid JSON (quote it CSV-style when it contains a comma)");
          }
          if (!filter || typeof filter !== "object" || Array.isArray(filter)) fail("the row filter must be a JSON object");
        }
        if (columns !== undefined && columns !== "") {
          if (act === "delete") fail("a delete rule takes no column list");
          try {
            parseColumnList(columns);
          } catch (e) {
            fail((e as Error).message);
          }
        }
      } else {
        fail("the object must be a /route, menu:<entry>, data:<table> or api:/path");
      }
    }
    // Trailing empty values say nothing: "p, r, data:t, select, " is "p, r, data:t, select".
    const values = [...v];
    while (rule.ptype === "p" && values.length > 3 && values[values.length - 1] === "") values.pop();
    const key = [rule.ptype, ...values].join("\u0000");
    if (seen.has(key)) continue;
    seen.add(key);
    rules.push({ ptype: rule.ptype, values });
  }
  return rules;
}

/** A data rule's column list: the columns it grants ("a b c") or all columns but some ("-a -b"). */
export type ColumnList = { readonly only: readonly string[] } | { readonly except: readonly string[] };

/** Parses the 5th value of a data rule; throws PolicyError when it is neither form. */
export function parseColumnList(text: string): ColumnList {
  const names = text.trim().split(/\s+/).filter(Boolean);
  if (!names.length) throw new PolicyError("the column list is empty");
  const negated = names.filter((n) => n.startsWith("-"));
  if (negated.length && negated.length !== names.length) throw new PolicyError('a column list names the columns granted ("a b") or those withheld ("-a -b"), not both');
  for (const n of names) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n.replace(/^-/, ""))) throw new PolicyError(`bad column name "${n}"`);
  return negated.length ? { except: names.map((n) => n.slice(1)) } : { only: names };
}

/** The groups a role belongs to, transitively (g lines), the role itself first. */
export function roleWithGroups(role: string, rules: readonly Rule[]): string[] {
  const result = [role];
  for (let i = 0; i < result.length; i++) {
    for (const r of rules) {
      if (r.ptype === "g" && r.values[0] === result[i] && !result.includes(r.values[1])) result.push(r.values[1]);
    }
  }
  return result;
}
