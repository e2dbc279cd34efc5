/**
 * The real server for tests and test tools, vitest-free (tests/simulate.ts runs outside the test runner):
 * in process over a given database (`serverOver`, what tests/support/auth.ts and tests/simulate.ts start), or as
 * a child process running server/main.ts on a PostgreSQL database (`spawnServer`), which can be killed with
 * SIGKILL mid-request and started again on the same database.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { pathToFileURL } from "node:url";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildServer } from "../../server/app.ts";
import { configFromEnv, type Config } from "../../server/config.ts";
import type { Db } from "../../server/db/types.ts";

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
}

/** The server over `db` (already migrated and seeded); `close` closes both, then runs `after` (e.g. drop the database). */
export async function serverOver(db: Db, options: { config?: Partial<Config>; after?: () => Promise<void> } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-server-"));
  // The tests stand in for a proxy: each test client sends its own X-Forwarded-For address.
  const config = { ...configFromEnv({ DATA_DIR: dataDir, SEED_DEMO: "false", TRUST_PROXY: "true" } as NodeJS.ProcessEnv, []), port: 0, host: "127.0.0.1", ...options.config };
  const app = await buildServer({ db, config, migrations: 0 }, { logger: false, serveApp: false });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.close();
      await options.after?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ChildServer {
  baseUrl: string;
  child: ChildProcess;
  /** kill -9: the process ends at once, whatever it was doing (its open transactions are rolled back by PostgreSQL). */
  kill(): Promise<void>;
  /** Resolves once the server printed `line` (e.g. a finance test pause it reached); rejects if it exits first. */
  printed(line: string): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "../..");

/**
 * server/main.ts as one file (the app's modules bundled, the packages imported as installed), built once per process
 * into a temp dir that links the repo's node_modules: a child started from it skips tsx compiling every module
 * (most of a ~10 s start on a loaded machine). Each module's `import.meta.url`/`dirname` is kept as its source file's,
 * so the paths the server reads beside its code (migrations, access policy, workers) resolve as under tsx.
 */
let bundle: Promise<string> | undefined;
export function serverBundle(): Promise<string> {
  bundle ??= (async () => {
    const { build } = await import("esbuild");
    const dir = mkdtempSync(path.join(os.tmpdir(), "backoffice-bundle-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    const outfile = path.join(dir, "main.mjs");
    await build({
      entryPoints: [path.join(root, "server/main.ts")], outfile, bundle: true, packages: "external", platform: "node", format: "esm", target: "node20", logLevel: "error",
      plugins: [{
        name: "source-paths",
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, (args) => ({
            loader: "ts",
            contents: readFileSync(args.path, "utf8")
              .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
              .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
          }));
        },
      }],
    });
    return outfile;
  })();
  return bundle;
}

/**
 * `npm start`'s server/main.ts (without building the browser app) as a child process on an existing PostgreSQL
 * database; resolves when /healthz answers. The port is drawn from 20000–29999 and tried again if taken. It may stop
 * inside a finance transaction when asked (FINANCE_TEST_PAUSES), and its statement timeout is raised: its start-up
 * (the ledger's revenue check over the whole run's data) outlasted the default on a loaded machine.
 */
export async function spawnServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const entry = await serverBundle();
  for (let attempt = 0; ; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 10000);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "backoffice-child-"));
    const child = spawn(process.execPath, [entry, "--dev"], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SEED_DEMO: "false", TRUST_PROXY: "true", SMTP_URL: "", MAIL_DROP_DIR: "", FINANCE_TEST_PAUSES: "true", STATEMENT_TIMEOUT_MS: "120000", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const seen: Array<() => void> = [];
    const onData = (d: Buffer) => {
      output += d;
      for (const check of [...seen]) check();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const baseUrl = `http://127.0.0.1:${port}`;
    // 5 minutes: under a load of 30 the import of the server alone took over 30 s, and a start beyond 120 s ended a
    // simulation run with "the child server did not start" (no output: still loading)
    const deadline = Date.now() + 300_000;
    let up = false;
    while (!up && child.exitCode === null && Date.now() < deadline) {
      up = await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 100));
    }
    const kill = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    };
    const printed = (line: string) =>
      new Promise<void>((resolve, reject) => {
        const from = output.length;
        const check = () => {
          if (!output.slice(from).includes(line)) return;
          seen.splice(seen.indexOf(check), 1);
          resolve();
        };
        seen.push(check);
        void exited.then(() => reject(new Error(`the child server exited before printing "${line}"`)));
      });
    if (up) return { baseUrl, child, kill, printed };
    await kill();
    if (attempt >= 2 || !/EADDRINUSE/.test(output)) throw new Error(`the child server did not start:\n${output}`);
  }
}
