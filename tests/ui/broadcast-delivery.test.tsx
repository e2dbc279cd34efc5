/**
 * The broadcast detail page shows each recipient's status after the outbox delivery (issue 7 §7):
 * queued when sent, then sent — or failed with the reason when the transport refused the message.
 * Against the real in-process server; the transport is a recording fake.
 */
import { describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { broadcasts, unsubscribers } from "../../resources/communication.ts";
import { api } from "../../src/app/api.ts";
import { drainOutbox, recordingTransport } from "../server/communication-transport.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();

describe("broadcast detail: per-recipient status after delivery", () => {
  it("shows sent for the delivered recipient and failed with the reason for the refused one", async () => {
    const { rows: students } = await server.db.query<{ id: string; email: string; username: string }>(
      `select id, email, username from users where type = 'student' and status = 'active' and subscribe and email is not null order by username limit 2`,
    );
    expect(students).toHaveLength(2);
    const [delivered, refused] = students as [(typeof students)[0], (typeof students)[0]];
    await signInAs(server.baseUrl, "sales");
    const res = await api<{ id: string; recipients: number }>("POST", "/broadcast", {
      title: "Delivery status check",
      content: "<p>Hello.</p>",
      via: ["email"],
      recipientType: "student",
      filterRecipient: { studentIds: [delivered.id, refused.id] },
    });
    expect(res.data?.recipients).toBe(2);
    const transport = recordingTransport();
    transport.refuse((m) => (m.to === refused.email ? "550 mailbox unavailable" : undefined));
    await drainOutbox(server.db, transport, { maxAttempts: 1 });

    await renderResources([broadcasts, unsubscribers], `/communication/broadcast/broadcast-detail/${res.data!.id}`);
    const table = await screen.findByTestId("sent-logs", {}, { timeout: 30_000 });
    const rowOf = async (username: string) =>
      waitFor(() => {
        const row = within(table).getByText((_t, el) => el?.tagName === "TD" && (el.textContent ?? "").includes(`(${username})`)).closest("tr");
        if (!row) throw new Error(`no row for ${username}`);
        return row as HTMLElement;
      }, { timeout: 20_000 });
    const ok = await rowOf(delivered.username);
    expect(within(ok).getByText("Sent")).toBeTruthy();
    expect(within(ok).queryByText("Failed")).toBeNull();
    const bad = await rowOf(refused.username);
    expect(within(bad).getByText("Failed")).toBeTruthy();
    expect(within(bad).getByText(`Email to ${refused.email}: 550 mailbox unavailable`)).toBeTruthy();
    expect(within(table).getAllByText("Failure Reason").length).toBeGreaterThan(0);
  }, 240_000);
});
