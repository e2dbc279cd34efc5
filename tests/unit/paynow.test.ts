/**
 * Issue 35 item 1: the PayNow QR payload of a payment advice, decoded back with an EMVCo reader written here
 * (independent of the encoder): the tags a banking app reads, the CRC over the payload, and which PAs get one.
 */
import { describe, expect, it } from "vitest";
import { crc16Ccitt, payNowPayload, payNowRequestFor } from "../../src/domain/finance/paynow.ts";

/** EMVCo TLV: two-digit id, two-digit length, value; templates 26 and 62 read one level down. */
function readEmv(payload: string): Record<string, string | Record<string, string>> {
  const read = (text: string, nested: boolean) => {
    const out: Record<string, string | Record<string, string>> = {};
    for (let i = 0; i < text.length; ) {
      const id = text.slice(i, i + 2);
      const length = Number(text.slice(i + 2, i + 4));
      if (!/^\d{2}$/.test(id) || !Number.isInteger(length)) throw new Error(`bad TLV at ${i}`);
      const value = text.slice(i + 4, i + 4 + length);
      if (value.length !== length) throw new Error(`field ${id} runs past the end`);
      out[id] = nested && (id === "26" || id === "62") ? (read(value, false) as Record<string, string>) : value;
      i += 4 + length;
    }
    return out;
  };
  return read(payload, true);
}

/** The top-level ids in the order they come (an object would list "26" before "00"). */
function topLevelIds(payload: string): string[] {
  const ids: string[] = [];
  for (let i = 0; i < payload.length; i += 4 + Number(payload.slice(i + 2, i + 4))) ids.push(payload.slice(i, i + 2));
  return ids;
}

/** CRC-16/CCITT-FALSE bit by bit, straight from its definition. */
function referenceCrc(text: string): string {
  let crc = 0xffff;
  for (const ch of Buffer.from(text, "utf8")) {
    for (let bit = 7; bit >= 0; bit--) {
      const top = (crc >> 15) & 1;
      const inBit = (ch >> bit) & 1;
      crc = (crc << 1) & 0xffff;
      if (top ^ inBit) crc ^= 0x1021;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

const request = { uen: "201912345K", amount: 123_45, expiry: "2026-12-31", reference: "PA-BME-2026-00001", merchantName: "Bright Minds Education Pte Ltd" };

describe("PayNow QR payload (SGQR, EMVCo merchant-presented)", () => {
  it("carries PayNow's account (UEN proxy, amount not editable, expiry), SGD, the amount, SG, the name, the bill reference and a valid CRC", () => {
    const payload = payNowPayload(request);
    const tags = readEmv(payload);
    expect(tags["00"]).toBe("01");
    expect(tags["01"]).toBe("12");
    expect(tags["26"]).toEqual({ "00": "SG.PAYNOW", "01": "2", "02": "201912345K", "03": "0", "04": "20261231" });
    expect(tags["52"]).toBe("0000");
    expect(tags["53"]).toBe("702");
    expect(tags["54"]).toBe("123.45");
    expect(tags["58"]).toBe("SG");
    expect(tags["59"]).toBe("Bright Minds Education Pt"); // EMVCo's 25 characters
    expect(tags["60"]).toBe("Singapore");
    expect(tags["62"]).toEqual({ "01": "PA-BME-2026-00001" });
    expect(payload.slice(-8, -4)).toBe("6304");
    expect(tags["63"]).toBe(referenceCrc(payload.slice(0, -4)));
    expect(topLevelIds(payload)).toEqual(["00", "01", "26", "52", "53", "54", "58", "59", "60", "62", "63"]);
  });

  it("is what the paynowqr package (1.1.2) writes for the same request", () => {
    // new PaynowQR({ uen: '201912345K', amount: 123.45, editable: false, expiry: '20261231', refNumber: 'PA-BME-2026-00001', company: 'Bright Minds Education' }).output()
    const paynowqr =
      "00020101021226490009SG.PAYNOW010120210201912345K030100408202612315204000053037025406123.455802SG5922Bright Minds Education6009Singapore62210117PA-BME-2026-0000163041AC9";
    expect(payNowPayload({ ...request, merchantName: "Bright Minds Education" })).toBe(paynowqr);
  });

  it("CRC-16/CCITT-FALSE: the standard check value, and any changed character breaks it", () => {
    expect(crc16Ccitt("123456789")).toBe("29B1");
    const payload = payNowPayload(request);
    const tampered = payload.replace("123.45", "923.45");
    expect(referenceCrc(tampered.slice(0, -4))).not.toBe(tampered.slice(-4));
  });

  it("amounts always with two decimals; no expiry subtag without an expiry date; bad values refused", () => {
    expect(readEmv(payNowPayload({ ...request, amount: 500_00 }))["54"]).toBe("500.00");
    expect(readEmv(payNowPayload({ ...request, amount: 5 }))["54"]).toBe("0.05");
    expect(readEmv(payNowPayload({ ...request, expiry: null }))["26"]).toEqual({ "00": "SG.PAYNOW", "01": "2", "02": "201912345K", "03": "0" });
    expect(readEmv(payNowPayload({ ...request, merchantName: "Café Ünïcode Pte Ltd" }))["59"]).toBe("Cafe Unicode Pte Ltd");
    expect(() => payNowPayload({ ...request, amount: 0 })).toThrow(RangeError);
    expect(() => payNowPayload({ ...request, uen: "201912345-K" })).toThrow(RangeError);
  });
});

describe("which payment advice gets a PayNow QR", () => {
  const company = { name: "Bright Minds Education Pte Ltd", uen: "201912345K", payNowUen: null };
  const pa = { name: "PA-BME-2026-00001", paymentStatus: "unpaid", totalPayable: 654_00, amountReceived: 0, qrExpiryDate: "2026-12-31" };
  const today = "2026-11-27";

  it("an unpaid PA: the balance due, its expiry, its number as the reference, the company's UEN", () => {
    expect(payNowRequestFor({ ...pa, amountReceived: 100_00 }, company, today)).toEqual({
      uen: "201912345K", amount: 554_00, expiry: "2026-12-31", reference: "PA-BME-2026-00001", merchantName: company.name,
    });
  });

  it("the PayNow UEN set on the company wins over its UEN", () => {
    expect(payNowRequestFor(pa, { ...company, payNowUen: "T08LL1234A" }, today)?.uen).toBe("T08LL1234A");
  });

  it("none on drafts, paid, overpaid, voided or withdrawn PAs, with nothing left to pay, past its expiry, or without a UEN", () => {
    expect(payNowRequestFor({ ...pa, name: null, paymentStatus: "draft" }, company, today)).toBeNull();
    for (const paymentStatus of ["paid", "overpaid", "voided", "withdrawn"]) expect(payNowRequestFor({ ...pa, paymentStatus }, company, today)).toBeNull();
    expect(payNowRequestFor({ ...pa, amountReceived: 654_00 }, company, today)).toBeNull();
    expect(payNowRequestFor({ ...pa, qrExpiryDate: "2026-11-26" }, company, today)).toBeNull();
    expect(payNowRequestFor({ ...pa, qrExpiryDate: "2026-11-27" }, company, today)).not.toBeNull();
    expect(payNowRequestFor(pa, { ...company, uen: null }, today)).toBeNull();
  });
});
