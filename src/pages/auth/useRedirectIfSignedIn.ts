/** /login and /forgot-password: a signed-in user goes to the role's home page (spec part 1 §2). */
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { fetchCurrentUser } from "../../app/api.ts";
import { hasSession } from "../../app/session.ts";
import { roleHome } from "../../domain/roleHome.ts";

export function useRedirectIfSignedIn(): boolean {
  const navigate = useNavigate();
  const [checking, setChecking] = useState(hasSession);
  useEffect(() => {
    if (!hasSession()) return;
    let live = true;
    fetchCurrentUser()
      .then((user) => {
        if (live) navigate(roleHome(user.roles) ?? "/", { replace: true });
      })
      .catch(() => {
        if (live) setChecking(false);
      });
    return () => {
      live = false;
    };
  }, [navigate]);
  return checking;
}
