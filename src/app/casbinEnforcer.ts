/**
 * casbin's own enforcer over the server's model text and rules (DESIGN §6: the same model in the browser and
 * the server). The rules go in as arrays: the server's CSV keeps an unquoted JSON condition's quotes as they
 * are (src/domain/policyText.ts), which a CSV reader would not.
 */
import "./bufferGlobal.ts"; // first: casbin's csv-parse needs it as it loads
import { newEnforcer, newModelFromString, type Enforcer } from "casbin";

export async function buildEnforcer(modelText: string, p: string[][], g: string[][]): Promise<Enforcer> {
  const enforcer = await newEnforcer(newModelFromString(modelText));
  if (p.length) await enforcer.addPolicies(p);
  if (g.length) await enforcer.addGroupingPolicies(g);
  return enforcer;
}
