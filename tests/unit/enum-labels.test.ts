/**
 * Issue 37, item 16: every enum a screen shows reads in words, through one label table. Scans every stored
 * value the label table names and every resource's declared enum for a label that is the raw token
 * ("transferred", "great", "qr_code", "Qr Code"), and checks the words the new user met where they showed.
 */
import { describe, expect, it } from "vitest";
import { ENUM_LABELS, storedValueLabel } from "../../src/domain/enumLabels.ts";
import { PA_STATUSES } from "../../src/domain/finance/paymentAdviceStatus.ts";
import { CREDIT_NOTE_STATUSES } from "../../src/domain/finance/creditNote.ts";
import { RATINGS, REFUND_METHODS, REFUND_STATUSES } from "../../src/domain/finance/refund.ts";
import { CARD_TYPES, INVOICE_STATUSES, PAYMENT_METHODS } from "../../src/domain/finance/invoice.ts";
import { SEAT_STATUSES } from "../../src/domain/attendance.ts";
import { ACTIVE_ENROLMENT_STATUSES } from "../../src/domain/students.ts";
import { auditChangeText } from "../../src/domain/auditHistory.ts";
import { resources } from "../../resources/index.ts";
import { registerResources } from "../../src/framework/registry.ts";
import { enumLabel } from "../../src/framework/enumLabel.ts";

// the spec's refund method labels are lower case, word for word (part 2 §3)
const SPEC_WORDS = new Set(["refunds.refundMethod"]);
/** A label in words: no underscore, not the stored token itself, and not a machine word-split of it ("Qr Code"). */
const raw = (value: string, label: string) => label.includes("_") || label === value || (value.includes("_") && label === value.split("_").map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ") && label.length <= 8);

describe("one label table: every enum shown in words", () => {
  it("no stored value of the label table, nor of a declared resource, shows as its raw token", () => {
    const shown: Array<[string, string, string]> = [];
    for (const [table, columns] of Object.entries(ENUM_LABELS)) {
      for (const [column, labels] of Object.entries(columns)) {
        if (SPEC_WORDS.has(`${table}.${column}`)) continue;
        for (const [value, label] of Object.entries(labels)) shown.push([`${table}.${column}`, value, label]);
      }
    }
    for (const r of resources) {
      for (const f of r.fieldList) {
        if (f.kind !== "enum" || SPEC_WORDS.has(`${r.table}.${f.name}`)) continue;
        for (const [value, label] of Object.entries(f.values)) shown.push([`${r.table}.${f.name}`, value, label]);
      }
    }
    expect(shown.length).toBeGreaterThan(100);
    expect(shown.filter(([, value, label]) => /^[a-z]/.test(value) && raw(value, label))).toEqual([]);
  });

  it("the words the new user met: enrolment statuses, a gantry direction, a rating, a payment method", () => {
    registerResources(resources);
    const words = (table: string, column: string, values: string[]) => values.map((v) => enumLabel(table, column, v));
    expect(words("student_classes", "status", ["transferred", "enrolled", "pending", "completed", "withdrawn"])).toEqual(["Transferred", "Enrolled", "Pending", "Completed", "Withdrawn"]);
    expect(words("gantry_records", "direction", ["in", "out"])).toEqual(["In", "Out"]);
    expect(words("refunds", "rating", ["great", "not good"])).toEqual(["Great", "Not Good"]);
    expect(words("invoice_payments", "paymentMethod", ["qr_code"])).toEqual(["QR Code (PayNow)"]);
    expect(words("receipts", "paymentMethod", ["qr_code"])).toEqual(["QR Code (PayNow)"]);
    expect(words("deposits", "depositStatus", ["refunded"])).toEqual(["Refunded"]);
  });

  it("a history line shows an enum's labels, other values as stored", () => {
    const label = (c: string) => ({ status: "Status", remarks: "Remarks" })[c] ?? c;
    const value = (c: string, v: unknown) => storedValueLabel("student_classes", c, v);
    expect(auditChangeText("update", { column: "status", before: "enrolled", after: "withdrawn" }, label, value)).toBe("Status: Enrolled → Withdrawn");
    expect(auditChangeText("update", { column: "remarks", before: "in", after: null }, label, value)).toBe("Remarks: in → --");
  });

  it("every status set has a label in the one table: PA, credit note, refund, user, invoice, deposit, requests, enrolment", () => {
    const sets: Array<[string, string, readonly string[]]> = [
      ["payment_advices", "paymentStatus", PA_STATUSES],
      ["credit_notes", "creditNoteStatus", CREDIT_NOTE_STATUSES],
      ["refunds", "refundStatus", REFUND_STATUSES],
      ["refunds", "refundMethod", REFUND_METHODS],
      ["refunds", "rating", RATINGS],
      // users.status's check constraint less "deleted" (soft deletion, never shown as a status)
      ["users", "status", ["active", "locked", "pending", "disabled", "inactive", "draft"]],
      ["invoices", "invoiceStatus", INVOICE_STATUSES],
      ["receipts", "paymentMethod", PAYMENT_METHODS],
      ["receipts", "cardType", CARD_TYPES],
      ["deposits", "depositStatus", ["issued", "paid", "used", "refunded"]],
      ["suspensions", "suspensionStatus", ["pending", "completed", "rejected", "cancelled"]],
      ["withdrawals", "withdrawalStatus", ["pending", "completed", "rejected", "cancelled"]],
      ["request_transfer_classes", "transferClassStatus", ["pending", "completed", "rejected", "cancelled"]],
      ["student_classes", "status", [...new Set([...SEAT_STATUSES, ...ACTIVE_ENROLMENT_STATUSES])]],
    ];
    const unlabelled = sets.flatMap(([table, column, values]) => values.filter((v) => !storedValueLabel(table, column, v)).map((v) => `${table}.${column}=${v}`));
    expect(unlabelled).toEqual([]);
    // the browser's screens read the same words as the server's papers and exports
    registerResources(resources);
    expect(enumLabel("payment_advices", "paymentStatus", "overdue")).toBe("OverDue");
    expect(enumLabel("refunds", "refundStatus", "awaiting_sale_action")).toBe("Awaiting Sale Action");
    expect(enumLabel("users", "status", "inactive")).toBe("Inactive");
  });
});
