/**
 * Lazy page chunks; a chunk that fails to load reloads the page once (spec part 1 §8), e.g. after a
 * deployment replaced the hashed files. The flag is cleared when a chunk loads again.
 */
import { lazy, type ComponentType } from "react";

const FLAG = "backoffice.chunk-reloaded";

export function isChunkLoadError(err: unknown): boolean {
  const msg = err instanceof Error ? `${err.name} ${err.message}` : String(err);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Unable to preload CSS/i.test(msg);
}

/** Reloads the page unless this tab already reloaded for a failed chunk; returns whether it reloads. */
export function reloadOnceForChunkError(): boolean {
  try {
    if (sessionStorage.getItem(FLAG)) return false;
    sessionStorage.setItem(FLAG, String(Date.now()));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(async () => {
    try {
      const mod = await load();
      try {
        sessionStorage.removeItem(FLAG);
      } catch {
        /* storage unavailable */
      }
      return mod;
    } catch (err) {
      if (isChunkLoadError(err) && reloadOnceForChunkError()) return new Promise<{ default: T }>(() => undefined);
      throw err;
    }
  });
}

/** Vite reports failed dynamic imports (also those of pages made elsewhere) with vite:preloadError. */
export function installChunkErrorReload(): void {
  window.addEventListener("vite:preloadError", (event) => {
    // Vite reports any failed dynamic import here, also a module that threw while loading: only a chunk
    // that could not be fetched is worth a reload (preventDefault makes the import resolve to nothing).
    const payload = (event as Event & { payload?: unknown }).payload;
    if (isChunkLoadError(payload) && reloadOnceForChunkError()) event.preventDefault();
  });
}
