/**
 * Renders declared resources' pages inside a real Refine root (the shell's Hasura data provider, its
 * casbin access control, antd notifications, the react-router bindings) against the in-process server.
 *
 * Each test file must start with REACT_ROUTER_SINGLETON's vi.mock line: vitest resolves "react-router" for
 * test and src files with browser conditions (its CJS build) while @refinedev/react-router, loaded by
 * Node, gets the ESM build — two router contexts. The mock hands everyone Node's copy.
 */
import { act, render } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useLocation, useNavigate, type NavigateFunction } from "react-router";
import { App as AntdApp, ConfigProvider } from "antd";
import { Refine } from "@refinedev/core";
import routerProvider, { UnsavedChangesNotifier } from "@refinedev/react-router";
import { useNotificationProvider } from "@refinedev/antd";
import { createDataProvider } from "../../src/app/providers/data.ts";
import { createLiveProvider, createWsClient } from "../../src/app/providers/live.ts";
import { AnsweredRows } from "../../src/app/providers/answeredRows.ts";
import WebSocket from "ws";
import { accessControlProvider } from "../../src/app/providers/access.ts";
import { authorizedFetch } from "../../src/app/api.ts";
import { signIn } from "../../src/app/auth.ts";
import { configureFramework, refineResources, resourcePages, type Resource } from "../../src/framework/index.ts";
import { installDomGaps, useServer } from "./shell-support.ts";
import { DEMO_PASSWORD } from "../../server/db/seed-demo.ts";

/** Where the app is, and its navigate: a test leaves a page as an in-app link would. */
export const probe: { location: string; navigate: NavigateFunction } = { location: "", navigate: () => undefined };

function LocationProbe() {
  const l = useLocation();
  probe.location = l.pathname + l.search;
  probe.navigate = useNavigate();
  return null;
}

export async function signInAs(baseUrl: string, username: string): Promise<void> {
  installDomGaps();
  useServer(baseUrl);
  configureFramework({ apiBase: `${baseUrl}/api/v2`, mediaBase: baseUrl, apiFetch: authorizedFetch });
  await signIn(username, DEMO_PASSWORD);
}

/**
 * `live`: the app's graphql-ws live provider in "auto" mode, as in the app (off by default: fewer sockets);
 * over `ws`, since jsdom's events and Node's WebSocket do not mix.
 */
export async function renderResources(resources: readonly Resource[], path: string | { pathname: string; state: unknown }, { live = false } = {}) {
  const pages = resourcePages(resources);
  const answers = new AnsweredRows(); // as in the app: the live provider knows the data provider's reads
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[path]}>
        <ConfigProvider>
          <AntdApp>
            <Refine
              dataProvider={createDataProvider(undefined, answers)}
              liveProvider={live ? createLiveProvider(createWsClient(WebSocket), answers) : undefined}
              routerProvider={routerProvider}
              accessControlProvider={accessControlProvider}
              notificationProvider={useNotificationProvider}
              resources={refineResources(resources)}
              options={{ syncWithLocation: true, warnWhenUnsavedChanges: true, disableTelemetry: true, liveMode: live ? "auto" : "off", reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } } }}
            >
              <Routes>
                {pages.map((p) => (
                  <Route key={p.path} path={p.path} element={p.element} />
                ))}
              </Routes>
              <UnsavedChangesNotifier />
              <LocationProbe />
            </Refine>
          </AntdApp>
        </ConfigProvider>
      </MemoryRouter>,
    );
  });
}
