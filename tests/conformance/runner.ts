/**
 * Replays one fixture dir the way upstream's pytest classes do:
 * - query dirs: setup.yaml once before the class, teardown.yaml once after it (POST /v1/query, must be 200);
 * - mutation dirs: schema_setup.yaml once, values_setup.yaml before and values_teardown.yaml after every test
 *   (and every transport run), schema_teardown.yaml at the end;
 * - each fixture file runs over http, and again over graphql-transport-ws when MANIFEST lists the websocket
 *   transport for the dir and not the file as http-only. /v1/query steps and steps without a response always
 *   go over http; a file stops at its first failing step, as upstream's asserts do.
 */
import path from "node:path";
import { adaptSetup, MISSING_SETUP, MISSING_TEARDOWN } from "./adaptations.ts";
import { compareResponse } from "./compare.ts";
import { fixtureExists, fixtureSteps, readYaml, type DirSpec, type Step } from "./fixtures.ts";
import { ADMIN_SECRET, post, type ServerUnderTest } from "./http.ts";
import { wsOperation } from "./ws.ts";

export type Transport = "http" | "websocket";

export interface FixtureOutcome {
  failures: string[];
  /** advisory differences (error texts, paths, codes) */
  notes: string[];
  /** setup adaptations and transports used, for the log */
  log: string[];
}

const strictOrder = process.env.CONFORMANCE_STRICT_ORDER === "1";

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s && s.length > 600 ? `${s.slice(0, 600)}…` : String(s);
}

/** An admin API error body, database error first (run_sql's internal.error.message), then the whole body. */
function describeAdminError(body: unknown): string {
  const b = body as { error?: string; code?: string; path?: string; internal?: { error?: { message?: string } } };
  const db = b?.internal?.error?.message;
  if (typeof b?.error === "string") return `${b.code ?? ""} at ${b.path ?? "$"}: ${db ? `${db} (${b.error})` : b.error}`;
  return show(body);
}

function isGraphqlUrl(url: string): boolean {
  return /\/graphql$/.test(url);
}

export class DirRun {
  readonly log: string[] = [];

  constructor(
    readonly spec: DirSpec,
    readonly server: ServerUnderTest,
  ) {}

  private file(name: string): string {
    return path.join(this.spec.dir, name);
  }

  /** Sends a setup/teardown file (adapted, see adaptations.ts) to /v1/query; anything but 200 is an error. */
  async admin(relativeFile: string, what: string): Promise<void> {
    const { body, applied } = adaptSetup(readYaml(relativeFile));
    for (const a of applied) this.log.push(`${relativeFile}: ${a}`);
    await this.adminBody(body, `${what} (${relativeFile})`);
  }

  private async adminBody(body: unknown, what: string): Promise<void> {
    const res = await post(this.server, "/v1/query", body);
    if (res.status !== 200) throw new Error(`${what} failed: HTTP ${res.status} ${describeAdminError(res.body)}`);
  }

  async setup(): Promise<void> {
    if (this.spec.style === "query") {
      if (!this.spec.setupFile) throw new Error(`${this.spec.dir}: no setup.yaml and no setupFrom in MANIFEST`);
      await this.admin(this.spec.setupFile, "setup");
    } else {
      await this.admin(this.file("schema_setup.yaml"), "schema_setup");
    }
    const missing = MISSING_SETUP[this.spec.dir];
    if (missing) {
      this.log.push(`${this.spec.dir}: added setup step — ${missing.reason}`);
      await this.adminBody(missing.body, "added setup step");
    }
  }

  async teardown(): Promise<void> {
    const missing = MISSING_TEARDOWN[this.spec.dir];
    if (missing) {
      this.log.push(`${this.spec.dir}: added teardown step — ${missing.reason}`);
      await this.adminBody(missing.body, "added teardown step");
    }
    if (this.spec.style === "query") {
      if (this.spec.teardownFile) await this.admin(this.spec.teardownFile, "teardown");
    } else {
      await this.admin(this.file("schema_teardown.yaml"), "schema_teardown");
    }
  }

  transportsFor(file: string): Transport[] {
    const ws = this.spec.transports.includes("websocket") && !this.spec.httpOnly.has(file);
    return ws ? ["http", "websocket"] : ["http"];
  }

  async runFixture(file: string): Promise<FixtureOutcome> {
    const outcome: FixtureOutcome = { failures: [], notes: [], log: [] };
    const steps = fixtureSteps(this.file(file));
    for (const transport of this.transportsFor(file)) {
      outcome.log.push(`transport ${transport}`);
      if (this.spec.style === "mutation") await this.admin(this.file("values_setup.yaml"), "values_setup");
      try {
        for (const [i, step] of steps.entries()) {
          const failures = await this.runStep(step, transport, outcome.notes);
          if (failures.length > 0) {
            const label = `[${transport}] step ${i + 1}/${steps.length}${step.description ? ` (${step.description})` : ""} ${step.url}`;
            outcome.failures.push(...failures.map((f) => `${label}: ${f}`));
            break;
          }
        }
      } finally {
        if (this.spec.style === "mutation" && fixtureExists(this.file("values_teardown.yaml"))) {
          await this.admin(this.file("values_teardown.yaml"), "values_teardown");
        }
      }
      if (outcome.failures.length > 0) break;
    }
    return outcome;
  }

  private async runStep(step: Step, transport: Transport, notes: string[]): Promise<string[]> {
    const overWs = transport === "websocket" && isGraphqlUrl(step.url) && step.response !== undefined && !Array.isArray(step.query);
    if (overWs) {
      const headers = { "X-Hasura-Admin-Secret": ADMIN_SECRET, ...(step.headers ?? {}) };
      const result = await wsOperation(this.server.wsUrl, headers, step.query);
      const c = compareResponse(step.response, result.payload, { strictOrder });
      notes.push(...c.notes);
      return c.failures;
    }
    const res = await post(this.server, step.url, step.query, step.headers);
    const failures: string[] = [];
    if (res.status !== step.status) failures.push(`HTTP ${res.status}, expected ${step.status}; body ${show(res.body)}`);
    if (step.response !== undefined) {
      const c = compareResponse(step.response, res.body, { strictOrder });
      notes.push(...c.notes);
      failures.push(...c.failures);
    }
    return failures;
  }
}
