/**
 * The Refine root of the signed-in app: providers, the route table (every route of both spec parts, each
 * guarded by the access policy) and the layout. Loaded lazily after sign-in; the public pages do not need it.
 */
import { Authenticated, Refine } from "@refinedev/core";
import routerProvider, { UnsavedChangesNotifier } from "@refinedev/react-router";
import { App as AntdApp, ConfigProvider } from "antd";
import { useEffect, useMemo, type ReactNode } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import "../framework/antdStatic.ts";
import { createDataProvider } from "./providers/data.ts";
import { createLiveProvider } from "./providers/live.ts";
import { AnsweredRows } from "./providers/answeredRows.ts";
import { authProvider } from "./providers/auth.ts";
import { accessControlProvider } from "./providers/access.ts";
import { notificationProvider } from "./providers/notification.ts";
import { i18nProvider } from "./i18n/index.ts";
import { APP_ROUTES } from "./routes.ts";
import { pageFor, refineResourceList } from "./pages.ts";
import { useAccess, usePolicyRefresh } from "./useAccess.ts";
import { AppLayout } from "../layout/AppLayout.tsx";
import { LayoutSkeleton } from "../layout/LayoutSkeleton.tsx";
import { PageSpinner } from "../layout/PageSpinner.tsx";
import NotFound from "../pages/not-found/NotFound.tsx";
import Forbidden from "../pages/forbidden/Forbidden.tsx";
import { roleHome } from "../domain/roleHome.ts";
import { configureFramework } from "../framework/index.ts";
import { authorizedFetch } from "./api.ts";
import { loginPathFor } from "./auth.ts";
import { startConnectionWatch } from "./connection.ts";

export { preloadPageFor } from "./pages.ts";

// Uploads from generated forms go through the same token refresh as every other REST call.
configureFramework({ apiFetch: authorizedFetch });

/** The page a user can always go back to: the role's home when they may open it, else the menu's first page. */
export function reachableHome(access: ReturnType<typeof useAccess>): string | undefined {
  const home = access.user ? roleHome(access.user.roles) : undefined;
  if (home && access.canView(home)) return home;
  return access.menu[0]?.items[0]?.path;
}

/** Renders the page when the user's roles may open the current path (casbin, concrete path), else "no access". */
export function RouteGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const access = useAccess();
  if (!access.ready) return <PageSpinner />;
  return access.canView(pathname) ? <>{children}</> : <Forbidden home={reachableHome(access)} />;
}

/**
 * The session ended while the app was open: to /login, remembering the page unless the user signed out
 * (Refine's CatchAllNavigate always remembers it, and raced the sign-out's own redirect).
 */
function SignedOutRedirect() {
  const { pathname, search } = useLocation();
  return <Navigate to={loginPathFor(pathname, search)} replace />;
}

/** `/` when signed in: the role's home page (first page of the menu for roles without a home row). */
export function HomeRedirect() {
  const access = useAccess();
  if (!access.ready || !access.user) return <PageSpinner />;
  const home = reachableHome(access);
  return home ? <Navigate to={home} replace /> : <Forbidden />;
}

export default function App() {
  usePolicyRefresh();
  useEffect(startConnectionWatch, []);
  const [dataProvider, liveProvider] = useMemo(() => {
    const answers = new AnsweredRows();
    return [createDataProvider(undefined, answers), createLiveProvider(undefined, answers)];
  }, []);
  return (
    <ConfigProvider theme={{ token: { colorPrimary: "#1677ff" } }}>
      <AntdApp>
        <Refine
          routerProvider={routerProvider}
          dataProvider={dataProvider}
          liveProvider={liveProvider}
          authProvider={authProvider}
          accessControlProvider={accessControlProvider}
          i18nProvider={i18nProvider}
          notificationProvider={notificationProvider}
          resources={refineResourceList}
          options={{
            syncWithLocation: true,
            warnWhenUnsavedChanges: true,
            disableTelemetry: true,
            liveMode: "auto",
            reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
          }}
        >
          <Routes>
            <Route
              element={
                <Authenticated key="signed-in" fallback={<SignedOutRedirect />} loading={<LayoutSkeleton />}>
                  <AppLayout />
                </Authenticated>
              }
            >
              <Route index element={<HomeRedirect />} />
              {APP_ROUTES.map((r) => (
                <Route key={r.path} path={r.path} element={<RouteGuard>{pageFor(r.path) ?? <NotFound />}</RouteGuard>} />
              ))}
              <Route path="*" element={<NotFound />} />
            </Route>
          </Routes>
          <UnsavedChangesNotifier />
        </Refine>
      </AntdApp>
    </ConfigProvider>
  );
}
