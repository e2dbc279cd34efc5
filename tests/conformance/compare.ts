/**
 * Response comparison as upstream's validate.py does it (see the fixtures' README):
 * - objects compare without regard to key order (strict key order on request: CONFORMANCE_STRICT_ORDER=1);
 * - arrays compare element by element, in order;
 * - error texts are advisory: when both sides carry `errors` (GraphQL) or `error` (admin API), only their presence
 *   counts; every other difference in such a body (text, path, code, `data: null`) is a note, not a failure.
 */
export interface Comparison {
  /** differences that fail the fixture */
  failures: string[];
  /** differences upstream only warns about */
  notes: string[];
}

export interface CompareOptions {
  strictOrder?: boolean;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? "undefined" : s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

function deepCompare(expected: unknown, actual: unknown, at: string, out: string[], options: CompareOptions): void {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      out.push(`${at}: expected an array ${show(expected)}, got ${show(actual)}`);
      return;
    }
    if (expected.length !== actual.length) {
      out.push(`${at}: expected ${expected.length} items, got ${actual.length}: expected ${show(expected)}, got ${show(actual)}`);
      return;
    }
    expected.forEach((e, i) => deepCompare(e, actual[i], `${at}[${i}]`, out, options));
    return;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) {
      out.push(`${at}: expected an object ${show(expected)}, got ${show(actual)}`);
      return;
    }
    const ek = Object.keys(expected);
    const ak = Object.keys(actual);
    const missing = ek.filter((k) => !(k in actual));
    const extra = ak.filter((k) => !(k in expected));
    if (missing.length) out.push(`${at}: missing keys ${missing.join(", ")} (got ${show(actual)})`);
    if (extra.length) out.push(`${at}: unexpected keys ${extra.join(", ")} (value ${show(actual)})`);
    if (options.strictOrder && !missing.length && !extra.length && ek.join("\u0000") !== ak.join("\u0000")) {
      out.push(`${at}: key order ${ak.join(",")} instead of ${ek.join(",")}`);
    }
    for (const k of ek) if (k in actual) deepCompare(expected[k], actual[k], `${at}.${k}`, out, options);
    return;
  }
  if (typeof expected === "number" && typeof actual === "number") {
    if (expected !== actual && Math.abs(expected - actual) > 1e-9 * Math.max(1, Math.abs(expected))) out.push(`${at}: expected ${expected}, got ${actual}`);
    return;
  }
  if (expected !== actual && !(expected === null && actual === undefined)) out.push(`${at}: expected ${show(expected)}, got ${show(actual)}`);
}

/** Compares one response body (not a batch) with its expectation. */
export function compareBody(expected: unknown, actual: unknown, options: CompareOptions = {}, at = "$"): Comparison {
  const result: Comparison = { failures: [], notes: [] };
  if (isObject(expected) && isObject(actual)) {
    for (const errorKey of ["errors", "error"]) {
      const e = errorKey in expected;
      const a = errorKey in actual;
      if (e && !a) {
        result.failures.push(`${at}: expected ${errorKey} ${show(expected[errorKey])}, got ${show(actual)}`);
        return result;
      }
      if (!e && a) {
        result.failures.push(`${at}: unexpected ${errorKey}: ${show(actual[errorKey])}`);
        return result;
      }
      if (e && a) {
        // Both bodies are errors: upstream (avoid_err_msg_checks) only warns about any difference from here on —
        // message, path, code, and a `data: null` beside the errors alike.
        deepCompare(expected, actual, at, result.notes, {});
        return result;
      }
    }
  }
  deepCompare(expected, actual, at, result.failures, options);
  return result;
}

/** A batch (list of operations) compares element-wise; otherwise one body. */
export function compareResponse(expected: unknown, actual: unknown, options: CompareOptions = {}): Comparison {
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length && expected.every(isObject)) {
    const out: Comparison = { failures: [], notes: [] };
    expected.forEach((e, i) => {
      const c = compareBody(e, actual[i], options, `$[${i}]`);
      out.failures.push(...c.failures);
      out.notes.push(...c.notes);
    });
    return out;
  }
  return compareBody(expected, actual, options);
}
