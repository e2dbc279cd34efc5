/**
 * A company's legal details as Singapore writes them (issue 19 §3): the form and the server check the same
 * rules, so a company saved by any client reads the same on the payment-advice paper.
 */
import type { Validator } from "./validators.ts";

/**
 * A Unique Entity Number: a business (8 digits and a letter), a local company (the year of incorporation,
 * 5 digits and a letter) or another entity (T/S/R, 2-digit year, a 2-letter entity type, 4 digits, a letter).
 */
export const UEN_PATTERN = /^(\d{8}[A-Z]|(18|19|20)\d{7}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])$/;
/** A GST registration number: the company's UEN, or the older M2-/M9-style number (M, 8 digits, a letter). */
export const GST_REG_NO_PATTERN = /^(M[0-9A-Z]\d{7}[A-Z]|\d{8}[A-Z]|(18|19|20)\d{7}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])$/;
/** A colour as the palette writes it: #RRGGBB, or #RRGGBBAA with transparency. */
export const COLOUR_CODE_PATTERN = /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

export const COMPANY_MESSAGES = {
  name: "Please input Company Name!",
  shortName: "Please input Short Name!",
  uen: "Please input UEN!",
  uenFormat: "Please enter a valid UEN (e.g. 201912345K).",
  payNowUenFormat: "Please enter a valid PayNow UEN (e.g. 201912345K), or leave it blank to use the UEN.",
  gstRefNo: "Please input GST Reg. No.!",
  gstRefNoFormat: "Please enter a valid GST Reg. No. (e.g. M90371234X or the UEN).",
  colorCode: "Please enter a colour code like #1677FF.",
  logo: "The logo must be an image uploaded to the media store.",
  notFound: "Company not found.",
} as const;

const matching =
  (pattern: RegExp, message: string): Validator =>
  (value) =>
    typeof value === "string" && value.trim() && !pattern.test(value.trim().toUpperCase()) ? message : null;
/** Form rules (a blank value passes: "required" is its own rule); the server checks the same patterns. */
export const uenProblem = matching(UEN_PATTERN, COMPANY_MESSAGES.uenFormat);
export const payNowUenProblem = matching(UEN_PATTERN, COMPANY_MESSAGES.payNowUenFormat);
export const gstRegNoProblem = matching(GST_REG_NO_PATTERN, COMPANY_MESSAGES.gstRefNoFormat);
export const colourCodeProblem = matching(COLOUR_CODE_PATTERN, COMPANY_MESSAGES.colorCode);
