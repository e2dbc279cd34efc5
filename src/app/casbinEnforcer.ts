/**
 * casbin's own enforcer over the server's model and rules: loaded only when the model is not the one
 * src/app/policyMatcher.ts answers for. The settings and rules go in as values (src/domain/policyText.ts):
 * casbin's text readers need Node's Buffer and csv-parse, which the browser build leaves out.
 */
import { newEnforcer, newModel, type Enforcer, type Model } from "casbin";

export async function buildEnforcer(settings: ReadonlyMap<string, string>, p: string[][], g: string[][]): Promise<Enforcer> {
  const model = newModel();
  // casbin reads each section's keys (r, r2, …) through the config's getString and checks the required sections
  model.loadModelFromConfig({ getString: (key: string) => settings.get(key) ?? "" } as unknown as Parameters<Model["loadModelFromConfig"]>[0]);
  const enforcer = await newEnforcer(model);
  if (p.length) await enforcer.addPolicies(p);
  if (g.length) await enforcer.addGroupingPolicies(g);
  return enforcer;
}
