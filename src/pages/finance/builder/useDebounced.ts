import { useEffect, useState } from "react";

/** The value, once it has stopped changing for `ms` milliseconds (spec part 2 §9 debounces). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const handle = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(handle);
  }, [value, ms]);
  return settled;
}
