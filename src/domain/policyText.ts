/**
 * The access policy as the server sends it (GET /api/v2/access/policy: casbin model text and CSV lines) read
 * into values, for the browser: the Roles screen's grid and the enforcer (src/app/policy.ts: its matcher reads
 * the model's settings; casbin, when the model is another, gets the rules as arrays, since the server's CSV keeps
 * an unquoted JSON condition's quotes, which a CSV reader would not).
 */

/**
 * Splits one CSV line as the server does: a value is quoted only when it starts with a quote ("" inside is a
 * quote); an unquoted JSON filter keeps its quotes as they are.
 */
export function splitLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === " " || line[i] === "\t") i++;
    let value = "";
    if (line[i] === '"') {
      for (i++; i < line.length; i++) {
        if (line[i] !== '"') value += line[i];
        else if (line[i + 1] === '"') value += line[++i];
        else break;
      }
      i++;
    }
    const end = line.indexOf(",", i);
    out.push(value || (end === -1 ? line.slice(i) : line.slice(i, end)).trim());
    if (end === -1) return out;
    i = end + 1;
  }
}

/** The policy's rules by kind: p = sub, obj, act[, cond[, columns]]; g = role, group. Comments and blank lines skipped. */
export function policyRules(policy: string | readonly string[]): { p: string[][]; g: string[][] } {
  const lines = typeof policy === "string" ? policy.split(/\r?\n/) : policy;
  const p: string[][] = [];
  const g: string[][] = [];
  for (const line of lines) {
    const t = line.trim();
    if (!t || t.startsWith("#")) continue;
    const [ptype, ...values] = splitLine(t);
    if (ptype === "p") p.push(values);
    else if (ptype === "g") g.push(values);
  }
  return { p, g };
}

/**
 * The model text's settings as casbin's config reader keys them ("matchers::m" → the matcher): sections in
 * brackets, `key = value` (split at the first "="), "#" and ";" start comments, a trailing "\\" continues a line.
 */
export function modelSettings(text: string): Map<string, string> {
  const settings = new Map<string, string>();
  let section = "";
  let pending = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = pending + raw.replace(/[#;].*$/, "").trim();
    pending = "";
    if (line.endsWith("\\")) {
      pending = line.slice(0, -1).trim() + " ";
      continue;
    }
    if (!line) continue;
    if (line.startsWith("[") && line.endsWith("]")) section = line.slice(1, -1).trim();
    else if (line.includes("=")) {
      const at = line.indexOf("=");
      settings.set(`${section}::${line.slice(0, at).trim()}`, line.slice(at + 1).trim());
    }
  }
  return settings;
}
