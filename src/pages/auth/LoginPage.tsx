/**
 * /login (spec part 1 §2, §8): sign-in; the locked-account message and sign-in errors; back to the origin.
 * Plain elements on purpose: the first page most users load carries no antd, Refine, casbin or GraphQL code.
 */
import { useState, type CSSProperties, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { rejectionMessage, type ApiRejection } from "../../app/api.ts";
import { LOCKED_MESSAGE, safeReturnPath, signIn } from "../../app/auth.ts";
import { prefetchSignedInApp } from "../../app/appChunk.ts";
import { roleHome } from "../../domain/roleHome.ts";
import { AuthCard } from "./AuthCard.tsx";
import { useRedirectIfSignedIn } from "./useRedirectIfSignedIn.ts";

/** The text shown when sign-in is refused: the identity provider's message; a locked account always reads the spec's text. */
export function signInErrorText(err: unknown): string {
  const r = err as Partial<ApiRejection> & { code?: string; locked?: boolean; isBlocked?: boolean };
  if (r?.locked || r?.isBlocked || r?.code === "locked" || r?.statusCode === 423 || /locked/i.test(r?.message ?? "")) return LOCKED_MESSAGE;
  return rejectionMessage(err, "Sign-in failed. Please try again.");
}

/** The identity provider refused the sign-in because the password is temporary. */
export function mustChangePassword(err: unknown): boolean {
  return Boolean((err as { data?: { mustChangePassword?: boolean } } | undefined)?.data?.mustChangePassword);
}

const label: CSSProperties = { display: "block", marginBottom: 6, fontSize: 14, color: "rgba(0,0,0,0.88)" };
const input: CSSProperties = {
  width: "100%",
  boxSizing: "border-box",
  height: 36,
  padding: "4px 11px",
  fontSize: 14,
  border: "1px solid #d9d9d9",
  borderRadius: 6,
  outline: "none",
};
const fieldError: CSSProperties = { color: "#ff4d4f", fontSize: 13, marginTop: 4 };

export default function LoginPage() {
  const checking = useRedirectIfSignedIn();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  if (checking) {
    return (
      <div data-testid="page-spinner" style={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center" }}>
        <div className="boot-spinner" aria-label="Loading" />
      </div>
    );
  }

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!username.trim() || !password) return;
    setBusy(true);
    setError(undefined);
    try {
      const user = await signIn(username.trim(), password);
      navigate(safeReturnPath(params.get("to")) ?? roleHome(user.roles) ?? "/", { replace: true });
    } catch (err) {
      if (mustChangePassword(err)) {
        // A temporary password (new account, or set by an administrator): change it first.
        navigate(`/change-password/${encodeURIComponent(username.trim())}`);
        return;
      }
      setError(signInErrorText(err));
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Sign in">
      {error && (
        <div
          role="alert"
          data-testid="login-error"
          style={{ background: "#fff2f0", border: "1px solid #ffccc7", borderRadius: 8, padding: "8px 12px", marginBottom: 16, fontSize: 14, color: "rgba(0,0,0,0.88)" }}
        >
          {error}
        </div>
      )}
      {/* Typing means signing in: the app behind the form starts downloading (not on load, /login stays small). */}
      <form onSubmit={onSubmit} onChange={prefetchSignedInApp} noValidate>
        <div style={{ marginBottom: 16 }}>
          <label htmlFor="username" style={label}>
            Username
          </label>
          <input id="username" name="username" style={input} autoComplete="username" autoFocus disabled={busy} value={username} onChange={(e) => setUsername(e.target.value)} />
          {touched && !username.trim() && <div style={fieldError}>Please input your username!</div>}
        </div>
        <div style={{ marginBottom: 24 }}>
          <label htmlFor="password" style={label}>
            Password
          </label>
          <input id="password" name="password" type="password" style={input} autoComplete="current-password" disabled={busy} value={password} onChange={(e) => setPassword(e.target.value)} />
          {touched && !password && <div style={fieldError}>Please input your password!</div>}
        </div>
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy}
          style={{ width: "100%", height: 36, border: 0, borderRadius: 6, background: busy ? "#69b1ff" : "#1677ff", color: "#fff", fontSize: 14, cursor: busy ? "default" : "pointer" }}
        >
          Sign in
        </button>
      </form>
      <div style={{ marginTop: 16, textAlign: "right", fontSize: 14 }}>
        <Link to="/forgot-password" style={{ color: "#1677ff" }}>
          Forgot password?
        </Link>
      </div>
    </AuthCard>
  );
}
