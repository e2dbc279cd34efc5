/**
 * Spec part 1 §8/§9 against the in-process server: each GraphQL error message appears as a toast followed
 * by a period, for 3 seconds, at most one at a time; network errors are only logged.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { waitFor } from "@testing-library/react";
import { startUiServer, type UiServer } from "../support/ui-server.ts";
import { disableMotion, installDomGaps, useServer } from "./shell-support.ts";
import { signIn } from "../../src/app/auth.ts";
import { createDataProvider } from "../../src/app/providers/data.ts";
import { createGraphQLClient } from "../../src/app/graphql.ts";
import { graphqlToastText } from "../../src/app/errors.ts";
import { notificationProvider } from "../../src/app/providers/notification.ts";

let server: UiServer;
beforeAll(async () => {
  installDomGaps();
  disableMotion();
  server = await startUiServer();
  useServer(server.baseUrl);
  await signIn("admin", "Demo@12345");
});
afterAll(async () => server?.close());

const toasts = () => [...document.querySelectorAll(".ant-message-notice")].map((n) => (n.textContent ?? "").trim());

describe("GraphQL error toasts", () => {
  it("shows the error message followed by a period", async () => {
    const dp = createDataProvider();
    const err = (await dp.getList({ resource: "no_such_table", pagination: { currentPage: 1, pageSize: 10 } }).catch((e) => e)) as {
      errors?: { message: string }[];
    };
    expect(err.errors?.length).toBeGreaterThan(0);
    const text = graphqlToastText(err.errors![0]!.message);
    expect(text.endsWith(".")).toBe(true);
    await waitFor(() => expect(toasts()).toContain(text), { timeout: 5000 });
  });

  it("shows at most one toast at a time, and it goes after 3 seconds", async () => {
    const dp = createDataProvider();
    await Promise.all([
      dp.getList({ resource: "no_such_table_a", pagination: { currentPage: 1, pageSize: 10 } }).catch(() => undefined),
      dp.getOne({ resource: "no_such_table_b", id: "00000000-0000-0000-0000-000000000000" }).catch(() => undefined),
    ]);
    await waitFor(() => expect(toasts().length).toBe(1));
    await new Promise((r) => setTimeout(r, 1500));
    expect(toasts().length).toBe(1);
    await waitFor(() => expect(toasts().length).toBe(0), { timeout: 3000 });
  });

  it("Refine's own notice of an error the GraphQL layer already toasted is not shown twice", async () => {
    const dp = createDataProvider();
    await dp.getList({ resource: "no_such_table_c", pagination: { currentPage: 1, pageSize: 10 } }).catch(() => undefined);
    notificationProvider.open({ type: "error", message: "Error (status code: 400)", description: "duplicate" });
    await waitFor(() => expect(toasts().length).toBe(1));
    expect(toasts()[0]).not.toContain("duplicate");
  });
});

describe("network errors", () => {
  it("are only logged", async () => {
    await waitFor(() => expect(toasts().length).toBe(0), { timeout: 4000 });
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const dp = createDataProvider(createGraphQLClient("http://127.0.0.1:9/v1/graphql"));
    await expect(dp.getList({ resource: "companies", pagination: { currentPage: 1, pageSize: 10 } })).rejects.toMatchObject({ statusCode: 0 });
    expect(log).toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 300));
    expect(toasts()).toEqual([]);
    log.mockRestore();
  });
});
