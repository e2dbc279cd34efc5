/**
 * casbin's browser build pulls in csv-parse, which touches the global `Buffer` when its module loads; the
 * browser has none. Imported before casbin (src/app/policy.ts) so the module graph evaluates it first.
 */
import { Buffer } from "buffer";

const g = globalThis as unknown as { Buffer?: unknown };
g.Buffer ??= Buffer;
