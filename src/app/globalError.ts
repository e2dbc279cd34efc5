/** The global error message (spec part 1 §2, §8): when set, a red bar shows above the header. */
import { useSyncExternalStore } from "react";

let value: string | undefined;
const listeners = new Set<() => void>();

export function setGlobalError(message: string | undefined): void {
  value = message || undefined;
  for (const l of listeners) l();
}

export function getGlobalError(): string | undefined {
  return value;
}

export function useGlobalError(): string | undefined {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => value,
  );
}
