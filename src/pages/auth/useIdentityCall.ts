import { useState } from "react";
import { rejectionMessage } from "../../app/api.ts";

/**
 * One call to the identity provider from a password page: `busy` while it runs (the form is disabled),
 * `error` holding the provider's message (or `fallback`) when it is refused; `run` resolves true on success.
 */
export function useIdentityCall(fallback: string) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await call();
      return true;
    } catch (err) {
      setError(rejectionMessage(err, fallback));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
