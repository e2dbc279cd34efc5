/**
 * One run at a time of a user action that writes (FINANCE.md §1: a double click never records money twice).
 * `busy` (the running action's label) drives the buttons' loading/disabled state, but a state change shows only
 * after React renders, and a form's submit validates first: two clicks can both get through before the button
 * turns busy. The ref is set synchronously, so a second run while one is in flight does nothing.
 */
import { useCallback, useRef, useState } from "react";

export function useOneAtATime<L extends string = string>(): { busy: L | null; run: (label: L, work: () => Promise<void>) => Promise<void> } {
  const running = useRef(false);
  const [busy, setBusy] = useState<L | null>(null);
  const run = useCallback(async (label: L, work: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(label);
    try {
      await work();
    } finally {
      running.current = false;
      setBusy(null);
    }
  }, []);
  return { busy, run };
}
