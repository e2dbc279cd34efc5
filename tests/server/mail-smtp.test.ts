/**
 * SMTP_URL: e-mail leaves through a mail relay (server/mail/transport.ts). The relay here is a real SMTP
 * server in the test process (smtp-server), standing at the edge of the world: what it receives is what a
 * relay would. Refusals come back with the relay's reply, which the outbox records as the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_MAIL_FROM, smtpTransport, transportFromEnv } from "../../server/mail/transport.ts";
import { html, mailBody, richText } from "../../server/mail/template.ts";

interface Received {
  from: string;
  to: string[];
  raw: string;
}

describe("e-mail through an SMTP relay", () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let url: string;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith("@bounce.example")) return callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }));
        callback();
      },
      onData(stream, session, callback) {
        let raw = "";
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
        stream.on("end", () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("delivers a password mail as plain text from MAIL_FROM, with the outbox id as Message-ID", async () => {
    const transport = transportFromEnv({ SMTP_URL: url, MAIL_FROM: "Centre Office <office@centre.example>" }, false)!;
    await transport.send({ id: "0b6f6c1e-1111-4222-8333-444455556666", channel: "email", to: "parent@example.com", subject: "Your password reset code", body: "Your code is 123456." });
    const mail = received.at(-1)!;
    expect(mail.from).toBe("office@centre.example");
    expect(mail.to).toEqual(["parent@example.com"]);
    expect(mail.raw).toMatch(/^Subject: Your password reset code\r?$/m);
    expect(mail.raw).toMatch(/^Message-ID: <0b6f6c1e-1111-4222-8333-444455556666@outbox\.backoffice>\r?$/im);
    expect(mail.raw).toMatch(/^Content-Type: text\/plain/im);
    expect(mail.raw).toContain("Your code is 123456.");
  });

  it("sends a templated e-mail (a broadcast) as HTML with its plain-text alternative", async () => {
    const body = mailBody(html`${richText("<p>The centre is <strong>closed</strong> on Monday.</p>")}`);
    await smtpTransport(url, DEFAULT_MAIL_FROM).send({ id: "b1", channel: "email", to: "student@example.com", subject: "Holiday notice", body: body.html, text: body.text });
    const mail = received.at(-1)!;
    expect(mail.from).toBe("no-reply@localhost");
    expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative/im);
    expect(mail.raw).toMatch(/^Content-Type: text\/html/im);
    expect(mail.raw).toMatch(/^Content-Type: text\/plain/im);
    expect(mail.raw).toContain("<strong>closed</strong>");
    expect(mail.raw).toContain("The centre is closed on Monday.");
  });

  it("a body without a plain-text alternative goes as plain text, even when it looks like HTML (issue 32: never guessed)", async () => {
    const name = `<a href="https://evil.example/pay">Outstanding fees: click to pay</a>`;
    await smtpTransport(url, DEFAULT_MAIL_FROM).send({ id: "t1", channel: "email", to: "parent@example.com", subject: "Your account", body: `Hello ${name},\nYour account is ready.` });
    const mail = received.at(-1)!;
    expect(mail.raw).toMatch(/^Content-Type: text\/plain/im);
    expect(mail.raw).not.toMatch(/^Content-Type: text\/html/im);
  });

  it("a refusal rejects with the relay's reply; SMS and notifications are refused without a gateway", async () => {
    const transport = smtpTransport(url, DEFAULT_MAIL_FROM);
    const before = received.length;
    await expect(transport.send({ id: "x1", channel: "email", to: "gone@bounce.example", subject: "s", body: "b" })).rejects.toThrow(/550.*mailbox unavailable/);
    await expect(transport.send({ id: "x2", channel: "sms", to: "+6591234567", subject: null, body: "b" })).rejects.toThrow("No SMS gateway is configured.");
    await expect(transport.send({ id: "x3", channel: "notification", to: "user-1", subject: "s", body: "b" })).rejects.toThrow("No notification service is configured.");
    expect(received.length).toBe(before);
  });

  it("MAIL_DROP_DIR wins over SMTP_URL; on a real database without either nothing is sent", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mail-drop-"));
    try {
      const before = received.length;
      await transportFromEnv({ SMTP_URL: url, MAIL_DROP_DIR: dir }, false)!.send({ id: "d1", channel: "email", to: "a@example.com", subject: "s", body: "b" });
      expect(readdirSync(dir)).toEqual(["d1.json"]);
      expect(received.length).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(transportFromEnv({}, false)).toBeUndefined();
  });
});
