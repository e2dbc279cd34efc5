/**
 * Back to where the user was (issue 19 §5): a link from a list to a form carries the list's address with its
 * filters, page and sort; after saving or cancelling the form returns there rather than to the bare list.
 */
import { useLocation } from "react-router";

export interface ReturnState {
  returnTo: string;
}

/** The state a link gives the page it opens: this page's address. */
export function useReturnState(): ReturnState {
  const location = useLocation();
  return { returnTo: location.pathname + location.search };
}

/** Where a form goes back to: the address it was opened from when that is its list (or parent page), else `back`. */
export function returnTarget(state: unknown, back: string | undefined): string | undefined {
  const returnTo = (state as Partial<ReturnState> | null)?.returnTo;
  if (!back || typeof returnTo !== "string") return back;
  return returnTo.split("?")[0] === back ? returnTo : back;
}
