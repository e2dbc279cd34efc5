import { describe, expect, it } from "vitest";
import { unsafePatternReason } from "../../server/graphql/plan/pattern-safety.ts";

/** Issue 32 (3a): the structural check of PostgreSQL patterns that could backtrack exponentially. */
describe("unsafePatternReason", () => {
  it.each([
    ["(a*)*(a*)*\\1\\2!", /the group \(a\*\) is repeated and holds a quantifier/],
    ["(a)(b)\\1\\2!", /back-reference \(\\1\)/],
    ["(a)\\1", /back-reference/],
    ["\\k<x>", /back-reference \(\\k\)/],
    ["(a*)*", /the group \(a\*\) is repeated and holds a quantifier/],
    ["(a+)+b", /the group \(a\+\) is repeated and holds a quantifier/],
    ["(a|aa)*", /the group \(a\|aa\) is repeated and holds an alternation/],
    ["(?:a{2,3}){2,}", /repeated and holds a quantifier/],
    ["((ab)?c)+", /repeated and holds a quantifier/],
    ["((a|b)c)*?", /holds an alternation/],
    ["***:(a*)*", /repeated/],
    ["(?i)(x+)+", /repeated/],
    ["(?x) ( a * ) * # spaced out", /repeated/],
  ])("refuses the regex %s", (pattern, reason) => {
    expect(unsafePatternReason(pattern, "regex")).toMatch(reason);
  });

  it.each([
    "^Tan",
    "Lee$",
    "^(?!Tan)",
    "(?<!Lee)$",
    "^[A-Z][a-z]+ [A-Z]",
    "(ab)*c",
    "(ab)?(cd)?",
    "(a*b)?",
    "colou?r|color",
    "[(]a*[)]*",
    "\\(a*\\)*",
    "[[:alpha:]]+\\d{2,4}",
    "x{2}(yz){3}",
    "***=(a*)*\\1",
    "(?q)(a*)*",
    "(?x)(a*) # a comment with (b+)+ in it",
  ])("lets the regex %s through", (pattern) => {
    expect(unsafePatternReason(pattern, "regex")).toBeUndefined();
  });

  it("reads SIMILAR TO syntax: % is a repeated wildcard, escaped digits become back-references", () => {
    expect(unsafePatternReason("Tan%", "similar")).toBeUndefined();
    expect(unsafePatternReason("%Lee", "similar")).toBeUndefined();
    expect(unsafePatternReason("%(a|b)%", "similar")).toBeUndefined();
    expect(unsafePatternReason("(a%)*", "similar")).toMatch(/the group \(a%\) is repeated and holds a quantifier/);
    expect(unsafePatternReason("(_|__)+x", "similar")).toMatch(/holds an alternation/);
    expect(unsafePatternReason("(a)\\1", "similar")).toMatch(/back-reference/);
  });
});
