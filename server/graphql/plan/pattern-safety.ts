/**
 * Issue 32 (3a): a pattern that can make PostgreSQL's regular-expression engine backtrack exponentially is
 * refused before it reaches the database. A structural check of PostgreSQL's syntax (ARE for the regex
 * operators, SIMILAR TO for _similar): back-references, and repeated groups that hold a quantifier or an
 * alternation ((a*)*, (a+)+, (a|aa)*), the shapes that give the backtracking its exponential room.
 * Lookarounds stay allowed (the app's "does not start/end with" filters use them; PostgreSQL refuses
 * back-references inside them and matches them without backtracking).
 */
export type PatternSyntax = "regex" | "similar";

/** Why the pattern is unsafe, in words for the caller; undefined when it is safe. */
export function unsafePatternReason(pattern: string, syntax: PatternSyntax): string | undefined {
  try {
    scan(pattern, syntax);
    return undefined;
  } catch (e) {
    if (e instanceof Unsafe) return e.message;
    throw e;
  }
}

class Unsafe extends Error {}

interface Group {
  readonly start: number;
  quantified: boolean;
  alternation: boolean;
}

/** {m}, {m,}, {m,n} at i: how many repetitions it allows at most (Infinity when unbounded), and its length. */
function bound(p: string, i: number): { max: number; length: number } | undefined {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 16));
  if (!m) return undefined;
  const max = m[2] === undefined ? Number(m[1]) : m[3] === "" ? Infinity : Number(m[3]);
  return { max, length: m[0].length };
}

/** The end (exclusive) of the bracket expression that opens at i. */
function bracketEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === "^") j++;
  if (p[j] === "]") j++; // a leading ] is a member
  while (j < p.length && p[j] !== "]") {
    if (p[j] === "[" && /[:.=]/.test(p[j + 1] ?? "")) {
      const close = p.indexOf(`${p[j + 1]}]`, j + 2);
      j = close < 0 ? p.length : close + 2;
    } else j += p[j] === "\\" ? 2 : 1;
  }
  return j + 1;
}

function scan(pattern: string, syntax: PatternSyntax): void {
  let p = pattern;
  let expanded = false;
  if (syntax === "regex") {
    if (p.startsWith("***=")) return; // the rest is a literal string
    if (p.startsWith("***:")) p = p.slice(4);
    const options = /^\(\?([a-z]*)\)/.exec(p);
    if (options) {
      if (options[1].includes("q")) return; // literal
      expanded = options[1].lastIndexOf("x") > options[1].lastIndexOf("t"); // the last of x (expanded) and t (tight) wins
      p = p.slice(options[0].length);
    }
  }
  const stack: Group[] = [{ start: -1, quantified: false, alternation: false }];
  const top = () => stack[stack.length - 1];
  // the group just closed, while its quantifier (if any) may follow
  let closed: Group | undefined;
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (expanded && /\s/.test(c)) {
      i++;
      continue;
    }
    if (expanded && c === "#") {
      const nl = p.indexOf("\n", i);
      i = nl < 0 ? p.length : nl + 1;
      continue;
    }
    const b = c === "{" ? bound(p, i) : undefined;
    const quantifier = c === "*" || c === "+" || c === "?" ? { max: c === "?" ? 1 : Infinity, length: 1 } : b;
    if (quantifier) {
      if (closed && quantifier.max > 1 && (closed.quantified || closed.alternation)) {
        const group = p.slice(closed.start, i);
        throw new Unsafe(`the group ${group} is repeated and holds ${closed.alternation ? "an alternation" : "a quantifier"} (nested quantifiers can take exponential time)`);
      }
      top().quantified = true;
      closed = undefined;
      i += quantifier.length;
      if (p[i] === "?" && syntax === "regex") i++; // non-greedy
      continue;
    }
    closed = undefined;
    if (c === "\\") {
      const next = p[i + 1] ?? "";
      if (/[1-9]/.test(next)) throw new Unsafe(`it uses a back-reference (\\${next}), which can take exponential time`);
      if (next === "k") throw new Unsafe("it uses a back-reference (\\k), which can take exponential time");
      i += 2;
    } else if (c === "[") i = bracketEnd(p, i);
    else if (c === "(") {
      const prefix = syntax === "regex" ? (/^\(\?(:|=|!|<=|<!)/.exec(p.slice(i, i + 4))?.[0] ?? "(") : "(";
      stack.push({ start: i, quantified: false, alternation: false });
      i += prefix.length;
    } else if (c === ")" && stack.length > 1) {
      closed = stack.pop()!;
      // what the group holds is inside its parent too
      top().quantified ||= closed.quantified;
      top().alternation ||= closed.alternation;
      i++;
      continue;
    } else if (c === "|") {
      top().alternation = true;
      i++;
    } else if (c === "%" && syntax === "similar") {
      top().quantified = true; // % is .*
      i++;
    } else i++;
  }
}
