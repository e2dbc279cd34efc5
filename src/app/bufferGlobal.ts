/**
 * Node's global Buffer, from the `buffer` package (casbin's own dependency for the browser): casbin imports
 * csv-parse, whose module reads the global Buffer when it loads. Imported before casbin (casbinEnforcer.ts).
 */
import { Buffer } from "buffer";

globalThis.Buffer ??= Buffer as unknown as typeof globalThis.Buffer;
