import { RequestError } from "../errors.ts";

/**
 * Hasura's JSON path argument of json/jsonb fields: "$", "$.a.b", ".a", "a", "arr[0]", "['key']", "[\"key\"]"
 * → the key list for Postgres's `#>`.
 */
export function parseJsonPath(path: string, where = "$"): string[] {
  const keys: string[] = [];
  let i = 0;
  const s = path.trim();
  if (s.startsWith("$")) i = 1;
  const fail = () => new RequestError("validation-failed", `parse json path error: ${path}`, where);
  let first = true;
  while (i < s.length) {
    const c = s[i];
    if (c === ".") {
      i++;
      if (s[i] === "[") continue; // "a.[0]" and "a.['k']" as written by some clients
      const m = /^[^.[\]]+/.exec(s.slice(i));
      if (!m) throw fail();
      keys.push(m[0]);
      i += m[0].length;
    } else if (c === "[") {
      const rest = s.slice(i);
      const m = /^\[\s*(\d+)\s*\]/.exec(rest) ?? /^\[\s*'((?:[^'\\]|\\.)*)'\s*\]/.exec(rest) ?? /^\[\s*"((?:[^"\\]|\\.)*)"\s*\]/.exec(rest);
      if (!m) throw fail();
      keys.push(m[1]);
      i += m[0].length;
    } else if (first) {
      const m = /^[^.[\]]+/.exec(s.slice(i));
      if (!m) throw fail();
      keys.push(m[0]);
      i += m[0].length;
    } else throw fail();
    first = false;
  }
  return keys;
}
