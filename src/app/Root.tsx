/**
 * The top of the route tree. Public pages (sign-in, password, deep links) and the not-found screen are
 * small chunks of their own; the Refine app (antd layout, casbin, the Hasura provider) loads only for a
 * signed-in user on a declared route. A declared route opened while signed out goes to /login?to=….
 */
import { Suspense } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import { lazyPage } from "./lazy.ts";
import { matchAppRoute } from "./routes.ts";
import { hasSession } from "./session.ts";
import { loginPathFor } from "./auth.ts";
import { startSignedInCalls } from "./signedInCalls.ts";
import { loadSignedInApp, preloadRoutePage } from "./appChunk.ts";
import NotFound from "../pages/not-found/NotFound.tsx";
import { LayoutSkeleton } from "../layout/LayoutSkeleton.tsx";

const App = lazyPage(loadSignedInApp);
const LoginPage = lazyPage(() => import("../pages/auth/LoginPage.tsx"));
const ForgotPasswordPage = lazyPage(() => import("../pages/auth/ForgotPasswordPage.tsx"));
const ChangePasswordPage = lazyPage(() => import("../pages/auth/ChangePasswordPage.tsx"));
const DeepLinkPage = lazyPage(() => import("../pages/deep-link/DeepLinkPage.tsx"));

function Loading() {
  return (
    <div data-testid="page-spinner" style={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center" }}>
      <div className="boot-spinner" aria-label="Loading" />
    </div>
  );
}

/** Everything that is not a public page: the signed-in app, /login when signed out, or not-found. */
function SignedInArea() {
  const { pathname, search } = useLocation();
  const known = pathname === "/" || matchAppRoute(pathname) !== undefined;
  if (!known) return <NotFound />;
  if (!hasSession()) return <Navigate to={loginPathFor(pathname, search)} replace />;
  startSignedInCalls();
  preloadRoutePage(pathname);
  // The frame, not a blank spinner, while the app's code downloads: it is the first paint of a signed-in page.
  return (
    <Suspense fallback={<LayoutSkeleton />}>
      <App />
    </Suspense>
  );
}

export function Root() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/change-password/:email" element={<ChangePasswordPage />} />
        <Route path="/posts/:id" element={<DeepLinkPage kind="post" />} />
        <Route path="/resource/detail/:id" element={<DeepLinkPage kind="resource" />} />
        <Route path="*" element={<SignedInArea />} />
      </Routes>
    </Suspense>
  );
}
