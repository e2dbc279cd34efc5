/**
 * Issue 10 §4: the browser shows stored rich text only through RichTextView, which keeps what Quill writes
 * and removes what could run or phone home — also for rows written before the server sanitised on write.
 */
import { describe, expect, it } from "vitest";
import { render, waitFor } from "@testing-library/react";
import { RichTextView, safeRichText } from "../../src/framework/RichTextView.tsx";
import { KINDS } from "../../src/framework/kinds.tsx";

const QUILL =
  `<h2 class="ql-align-center">Term 2</h2><p><span class="ql-font-georgia" style="color: rgb(230, 0, 0); background-color: rgb(255, 255, 0);">Fees</span> ` +
  `<a href="https://www.example-centre.sg/fees" target="_blank">here</a></p><ol><li data-list="bullet"><strong>Bring</strong> books</li></ol>` +
  `<p><img src="/media/public?key=news/a.png"><img src="data:image/png;base64,iVBORw0KGgo="></p>`;

const ATTACKS = [
  `<img src=x onerror="alert(1)">`,
  `<img/src=x/onerror=alert(1)>`,
  `<script>alert(1)</script>`,
  `<a href="javascript:alert(1)">x</a>`,
  `<a href=" JaVaScRiPt:alert(1)">x</a>`,
  `<svg><animate onbegin=alert(1) attributeName=x></svg>`,
  `<iframe srcdoc="<script>alert(1)</script>"></iframe>`,
  `<div style="background-image: url(https://evil.example/x); position: fixed">x</div>`,
  `<img src="https://evil.example/pixel.png">`,
  `<img src="data:image/svg+xml;base64,PHN2Zz4=">`,
  `<form action="https://evil.example"><button formaction="javascript:alert(1)">go</button></form>`,
  `<p class="ql-font-comicsansms evil-class" data-x="1" id="cookie">ok</p>`,
];

describe("RichTextView: stored rich text shown through DOMPurify with the server's allow-list", () => {
  it("keeps what Quill writes: whitelisted fonts, alignment, colours, links, lists, media and pasted images", () => {
    const html = safeRichText(QUILL);
    expect(html).toContain(`<h2 class="ql-align-center">Term 2</h2>`);
    expect(html).toContain(`<span class="ql-font-georgia" style="color: rgb(230, 0, 0); background-color: rgb(255, 255, 0)">Fees</span>`);
    expect(html).toContain(`<a href="https://www.example-centre.sg/fees" target="_blank" rel="noopener noreferrer">here</a>`);
    expect(html).toContain(`<li data-list="bullet"><strong>Bring</strong> books</li>`);
    expect(html).toContain(`<img src="/media/public?key=news/a.png"><img src="data:image/png;base64,iVBORw0KGgo=">`);
  });

  it.each(ATTACKS)("removes what could run or leak: %s", (attack) => {
    const html = safeRichText(attack);
    expect(html).not.toMatch(/<script|<iframe|<svg|<form|<button|onerror|onbegin|javascript:|evil\.example|svg\+xml|position|url\(|evil-class|id=|data-x/i);
  });

  it("the richText field kind renders through it once the viewer's code has loaded", async () => {
    const { container } = render(<>{KINDS.richText.render!(`<p>Hi<img src=x onerror="alert(1)"></p>`, {} as never)}</>);
    await waitFor(() => expect(container.innerHTML).toBe(`<div class="ql-editor" style="padding: 0px;"><p>Hi</p></div>`));
    const { container: empty } = render(<RichTextView html={null} />);
    expect(empty.innerHTML).toBe("");
  });
});
