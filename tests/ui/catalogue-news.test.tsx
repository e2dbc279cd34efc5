/**
 * News recipients uploaded from a file (issue 7 §7) against the real in-process server: the CSV is parsed
 * in the browser (bad lines reported, duplicates kept once), shown, saved with the news through POST /news
 * into news_recipients_upload, and mailed through the outbox with a news_logs row each.
 */
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useUiServer } from "../support/ui-server.ts";
import { probe, renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";
import { parseRecipientsFile } from "../../src/pages/communication/recipientsFile.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();

describe("recipients file", () => {
  it("reads a name and an e-mail per line in either order, skips a header, reports bad lines, keeps duplicates once", () => {
    const parsed = parseRecipientsFile('\uFEFFName,Email\r\n"Tan, Mei",mei@example.com\nbob@example.com;Bob Lee\nnot an address\n\nMEI@example.com,again\n');
    expect(parsed.recipients).toEqual([
      { name: "Tan, Mei", email: "mei@example.com" },
      { name: "Bob Lee", email: "bob@example.com" },
    ]);
    expect(parsed.errors).toEqual(["Line 4: no valid e-mail address"]);
  });
});

describe("news form: recipients upload", () => {
  it("uploads, shows and sends to the uploaded recipients only", async () => {
    await signInAs(server.baseUrl, "sales");
    await renderResources(resources, "/communication/news/create");
    const user = userEvent.setup();
    fireEvent.change(await screen.findByLabelText("Title", {}, { timeout: 30_000 }), { target: { value: "Open house invitation" } });
    const editor = await waitFor(() => {
      const el = document.querySelector(".ql-editor");
      if (!el) throw new Error("editor not ready");
      return el as HTMLElement;
    }, { timeout: 20_000 });
    editor.innerHTML = "<p>Join us on Saturday.</p>";
    fireEvent.input(editor);
    const file = new File(["name,email\nGuest Alpha,alpha@example.com\nGuest Beta,beta@example.com\nbroken\n"], "recipients.csv", { type: "text/csv" });
    const input = document.querySelector('input[type="file"][accept*="csv"]') as HTMLInputElement;
    await user.upload(input, file);
    await screen.findByText("2 uploaded recipient(s)", {}, { timeout: 10_000 });
    expect(screen.getByText("1 line(s) skipped")).toBeTruthy();
    expect(screen.getByText("alpha@example.com")).toBeTruthy();
    await user.click(screen.getByText("Send only to the uploaded recipients"));
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(probe.location).toMatch(/^\/communication\/news\/news-detail\/[0-9a-f-]+$/), { timeout: 20_000 });
    const id = probe.location.split("/").pop()!;
    const uploaded = await server.db.query<{ name: string; email: string }>(`select name, email from news_recipients_upload where "newsId" = $1 and status = 'active' order by email`, [id]);
    expect(uploaded.rows).toEqual([
      { name: "Guest Alpha", email: "alpha@example.com" },
      { name: "Guest Beta", email: "beta@example.com" },
    ]);
    const logs = await server.db.query<{ email: string; statusSent: string }>(`select email, "statusSent" from news_logs where "newsId" = $1 order by email`, [id]);
    expect(logs.rows).toEqual([
      { email: "alpha@example.com", statusSent: "queued" },
      { email: "beta@example.com", statusSent: "queued" },
    ]);
    const news = await server.db.query<{ message: string; newsStatus: string }>(`select message, "newsStatus" from news where id = $1`, [id]);
    expect(news.rows[0]).toMatchObject({ newsStatus: "sent" });
    expect(news.rows[0]!.message.replace(/&nbsp;|\u00a0/g, " ")).toContain("Join us on Saturday.");
    expect((await server.db.query(`select 1 from outbox where recipient = 'beta@example.com' and channel = 'email'`)).rows).toHaveLength(1);
  }, 240_000);
});
