/** The signed-in user: Refine's identity when an auth provider is mounted, else the session's cached user. */
import { useCurrentUser } from "../../app/useAccess.ts";
import { cachedCurrentUser, type CurrentUser } from "../../app/session.ts";

export function useSignedInUser(): CurrentUser | undefined {
  const { user } = useCurrentUser();
  return user ?? cachedCurrentUser();
}
