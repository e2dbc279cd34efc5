/**
 * The browser's answer to "may this role do this?" without casbin's engine when the server's model is our RBAC
 * model (access/model.conf): casbin evaluates its matcher rule by rule, ~27 ms a check over the ~1,300 rules (the
 * menu alone makes dozens: sign-in to the first list took 9 s instead of 5 in issue 33's measure), and ~35 kB. It follows casbin's steps exactly:
 * the rules in order, the first allowing one wins; g as casbin's default role manager (inheritance up to 10
 * levels); keyMatch2 as casbin writes it. tests/unit/browser-policy.test.ts compares it with casbin over every
 * role, object and action of the policy. Any other model goes to casbin (src/app/casbinEnforcer.ts).
 */

export interface PolicyCheck {
  enforceSync(sub: string, obj: string, act: string): boolean;
  /** The row conditions of the rules that allow it ("" where a rule has none); casbin's own enforcer has no such call. */
  rowConditions?(sub: string, obj: string, act: string): string[];
}

/** access/model.conf's settings, as modelSettings() reads them. */
const RBAC_MODEL: ReadonlyMap<string, string> = new Map([
  ["request_definition::r", "sub, obj, act"],
  ["policy_definition::p", "sub, obj, act, cond"],
  ["role_definition::g", "_, _"],
  ["policy_effect::e", "some(where (p.eft == allow))"],
  ["matchers::m", 'r.sub == "admin" || (g(r.sub, p.sub) && keyMatch2(r.obj, p.obj) && r.act == p.act)'],
]);

const MAX_HIERARCHY = 10; // casbin's DefaultRoleManager(10)

/** casbin's keyMatch2 pattern as a regular expression source (its replacement loop, verbatim). */
export function keyMatch2Source(pattern: string): string {
  let key = pattern.replace(/\/\*/g, "/.*");
  const param = /(.*):[^/]+(.*)/g;
  while (key.includes("/:")) key = key.replace(param, "$1[^/]+$2");
  if (key === "*") key = "(.*)";
  return `^${key}$`;
}

interface Rule {
  sub: string;
  act: string;
  /** The compiled pattern, or the error casbin would throw when it reaches this rule. */
  obj: RegExp | Error;
  cond: string;
}

function compile(pattern: string): RegExp | Error {
  try {
    return new RegExp(keyMatch2Source(pattern));
  } catch (err) {
    return err as Error;
  }
}

/** A check for our model and these rules; undefined when the model or a rule is one it does not handle. */
export function rbacPolicyCheck(settings: ReadonlyMap<string, string>, p: readonly string[][], g: readonly string[][]): PolicyCheck | undefined {
  if (settings.size !== RBAC_MODEL.size || [...RBAC_MODEL].some(([key, value]) => settings.get(key) !== value)) return undefined;
  if (p.some((r) => r.length < 3) || g.some((r) => r.length !== 2)) return undefined;

  const parents = new Map<string, string[]>();
  for (const [role, group] of g) parents.set(role!, [...(parents.get(role!) ?? []), group!]);
  const inherits = (role: string, group: string, levels: number): boolean =>
    role === group || (levels > 0 && (parents.get(role) ?? []).some((parent) => inherits(parent, group, levels - 1)));

  const compiled = new Map<string, RegExp | Error>();
  const rules: Rule[] = p.map(([sub, obj, act, cond]) => {
    if (!compiled.has(obj!)) compiled.set(obj!, compile(obj!));
    return { sub: sub!, act: act!, obj: compiled.get(obj!)!, cond: cond ?? "" };
  });

  /** The rules that allow sub to do act on obj, in order (casbin's answer is whether there is a first one). */
  function* allowing(sub: string, obj: string, act: string): Generator<Rule> {
    const links = new Map<string, boolean>();
    const hasLink = (group: string) => {
      let link = links.get(group);
      if (link === undefined) links.set(group, (link = inherits(sub, group, MAX_HIERARCHY)));
      return link;
    };
    for (const rule of rules) {
      if (!hasLink(rule.sub)) continue;
      if (rule.obj instanceof Error) throw rule.obj;
      if (rule.obj.test(obj) && rule.act === act) yield rule;
    }
  }

  return {
    enforceSync(sub, obj, act) {
      if (sub === "admin") return true;
      return !allowing(sub, obj, act).next().done;
    },
    rowConditions(sub, obj, act) {
      return [...allowing(sub, obj, act)].map((rule) => rule.cond);
    },
  };
}
