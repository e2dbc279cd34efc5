/**
 * The e-mail templates (server/mail/template.ts, issue 32 §4): every interpolated value is escaped unless it
 * is markup this module made (a nested template, or stored rich text reduced to the allow-list again); a
 * look-alike object from elsewhere is not trusted. The plain-text alternative says the same words.
 */
import { describe, expect, it } from "vitest";
import { html, mailBody, richText, textMail } from "../../server/mail/template.ts";

const EVIL = `<a href="https://evil.example/pay">Outstanding fees: click to pay</a>`;

describe("e-mail templates", () => {
  it("escapes every interpolated value, in text and in attributes", () => {
    const body = mailBody(html`<p title="${`" onmouseover="x`}">Dear ${EVIL}, ${"Tom & Jerry O'Neil"}</p>`);
    expect(body.html).toBe(`<p title="&quot; onmouseover=&quot;x">Dear &lt;a href=&quot;https://evil.example/pay&quot;&gt;Outstanding fees: click to pay&lt;/a&gt;, Tom &amp; Jerry O&#39;Neil</p>`);
    expect(body.text).toBe(`Dear ${EVIL}, Tom & Jerry O'Neil`);
  });

  it("nests templates and lists without escaping twice; null and undefined are nothing", () => {
    const rows = ["a<b", "c"].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${rows}</ul>${null}${undefined}`.html).toBe(`<ul><li>a&lt;b</li><li>c</li></ul>`);
  });

  it("only markup made here passes: a look-alike object is escaped, and stored rich text is reduced to the allow-list", () => {
    expect(html`${{ html: "<b>x</b>" }}`.html).toBe("[object Object]");
    const stored = richText(`<p>Fees <a href="https://centre.example/fees?a=1&b=2">here</a></p><style>p{}</style><form action="https://evil.example"><input></form><script>x()</script>`);
    expect(stored.html).toBe(`<p>Fees <a href="https://centre.example/fees?a=1&amp;b=2">here</a></p>`);
    expect(mailBody(stored).text).toBe("Fees here (https://centre.example/fees?a=1&b=2)");
  });

  it("a plain-text mail keeps its text and becomes escaped HTML with its line breaks", () => {
    expect(textMail`Hello ${EVIL},\n\nCode: ${"1&2"}`).toEqual({
      text: `Hello ${EVIL},\n\nCode: 1&2`,
      html: `<div>Hello &lt;a href=&quot;https://evil.example/pay&quot;&gt;Outstanding fees: click to pay&lt;/a&gt;,<br><br>Code: 1&amp;2</div>`,
    });
  });
});
