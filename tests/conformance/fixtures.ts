/**
 * The Hasura fixtures as the harness sees them: MANIFEST.json (which dirs, which files, which transports),
 * the YAML files (anchors and merge keys resolved), and OUT_OF_SCOPE.md (the only way to leave a fixture out).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import YAML from "yaml";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
export const FIXTURES_ROOT = path.resolve(process.env.CONFORMANCE_FIXTURES ?? path.join(REPO_ROOT, "../shared/conformance/hasura-tests-py"));
export const OUT_OF_SCOPE_FILE = path.join(import.meta.dirname, "OUT_OF_SCOPE.md");
export const PENDING_HEADING = "NOT YET PASSING (engine work in progress)";

export interface DirSpec {
  /** e.g. queries/graphql_query/basic */
  dir: string;
  fixtures: string[];
  transports: string[];
  httpOnly: Set<string>;
  /** mutation dirs: schema_setup/values_setup/values_teardown/schema_teardown; query dirs: setup/teardown per class */
  style: "query" | "mutation";
  /** where setup.yaml comes from when the dir has none (MANIFEST setupFrom) */
  setupFile?: string;
  teardownFile?: string;
}

interface ManifestEntry {
  dir: string;
  fixtures?: string[];
  transports?: string[];
  httpOnly?: string[];
  setupFrom?: string;
}

export function loadManifest(): DirSpec[] {
  const raw = JSON.parse(readFileSync(path.join(FIXTURES_ROOT, "MANIFEST.json"), "utf8")) as ManifestEntry[];
  return raw.map((e) => {
    const abs = path.join(FIXTURES_ROOT, e.dir);
    const style = existsSync(path.join(abs, "schema_setup.yaml")) ? "mutation" : "query";
    const setup = existsSync(path.join(abs, "setup.yaml")) ? path.join(e.dir, "setup.yaml") : e.setupFrom;
    const teardown = existsSync(path.join(abs, "teardown.yaml")) ? path.join(e.dir, "teardown.yaml") : undefined;
    return {
      dir: e.dir,
      fixtures: e.fixtures ?? [],
      transports: e.transports ?? ["http"],
      httpOnly: new Set(e.httpOnly ?? []),
      style,
      setupFile: style === "query" ? setup : undefined,
      teardownFile: style === "query" ? teardown : undefined,
    };
  });
}

/** YAML as upstream's loader reads it: anchors, aliases and `<<` merge keys. */
export function readYaml(relativePath: string): unknown {
  const text = readFileSync(path.join(FIXTURES_ROOT, relativePath), "utf8");
  return YAML.parse(text, { merge: true, maxAliasCount: -1 });
}

export function fixtureExists(relativePath: string): boolean {
  return existsSync(path.join(FIXTURES_ROOT, relativePath));
}

/** One step of a fixture file. */
export interface Step {
  url: string;
  status: number;
  query: unknown;
  response?: unknown;
  headers?: Record<string, string>;
  description?: string;
}

export function fixtureSteps(relativePath: string): Step[] {
  const doc = readYaml(relativePath);
  const list = Array.isArray(doc) ? doc : [doc];
  return list.map((raw, i) => {
    const s = raw as Record<string, unknown>;
    if (typeof s?.url !== "string") throw new Error(`${relativePath}[${i}]: no url`);
    return {
      url: s.url,
      status: typeof s.status === "number" ? s.status : 200,
      query: s.query,
      response: s.response,
      headers: s.headers ? Object.fromEntries(Object.entries(s.headers as Record<string, unknown>).map(([k, v]) => [k, String(v)])) : undefined,
      description: typeof s.description === "string" ? s.description : undefined,
    };
  });
}

export interface Exclusion {
  /** a dir (queries/...) or a fixture file (queries/.../x.yaml) */
  target: string;
  reason: string;
  pending: boolean;
}

/**
 * OUT_OF_SCOPE.md: every list item that starts with a backticked path excludes that dir or file.
 * Items under the "NOT YET PASSING" heading are engine work in progress; CONFORMANCE_INCLUDE_PENDING=1 runs them anyway.
 */
export function readExclusions(file = OUT_OF_SCOPE_FILE): Exclusion[] {
  if (!existsSync(file)) return [];
  const out: Exclusion[] = [];
  let pending = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const heading = /^#+\s+(.*)$/.exec(line);
    if (heading) {
      pending = heading[1].includes(PENDING_HEADING);
      continue;
    }
    const item = /^\s*[-*]\s+`([^`]+)`\s*(?:[—–:-]+\s*)?(.*)$/.exec(line);
    if (item) out.push({ target: item[1].replace(/\/$/, ""), reason: item[2].trim(), pending });
  }
  return out;
}

export function activeExclusions(): Map<string, Exclusion> {
  const includePending = process.env.CONFORMANCE_INCLUDE_PENDING === "1";
  return new Map(readExclusions().filter((e) => !(e.pending && includePending)).map((e) => [e.target, e]));
}
