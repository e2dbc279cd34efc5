import { describe, expect, it } from "vitest";
import {
  IMAGE_MAX_BYTES,
  MESSAGES,
  firstError,
  imageFile,
  isAcceptedImage,
  minLength,
  nameLike,
  numericOnly,
  username,
  endsBeforeStart,
  notBeforeMessage,
} from "../../src/domain/validators.ts";
import { dayjs } from "../../src/domain/dates.ts";

describe("Username: must not contain spaces, newline, tab, #, $, & or :", () => {
  it.each(["john", "john.doe", "john_doe-1", "JOHN99", "a@b.c", ""])("%j passes", (v) => expect(username(v)).toBeNull());
  it.each(["john doe", " john", "john\n", "jo\thn", "jo#hn", "jo$hn", "jo&hn", "jo:hn"])(
    "%j → 'Not allow space for username'",
    (v) => expect(username(v)).toBe("Not allow space for username"),
  );
  it("empty values pass (required is its own rule)", () => {
    expect(username(null)).toBeNull();
    expect(username(undefined)).toBeNull();
  });
});

describe("Name-like: letters and digits; words separated by one hyphen, space or apostrophe", () => {
  it.each(["Mary", "Mary Ann", "Mary-Ann", "O'Neil", "Tan Ah Kow 2", "José", "陈大文", "B2B", ""])("%j passes", (v) =>
    expect(nameLike(v)).toBeNull(),
  );
  it.each(["Mary  Ann", "Mary--Ann", " Mary", "Mary ", "-Mary", "Mary'", "a_b", "a!", "a.b", "a@b", "a\tb", "a' b"])(
    "%j → 'Space and Special characters not allowed'",
    (v) => expect(nameLike(v)).toBe("Space and Special characters not allowed"),
  );
});

describe("Numeric-only: only digits; message defaults to 'invalid_number'", () => {
  it.each(["0", "0123", "98765432", ""])("%j passes", (v) => expect(numericOnly()(v)).toBeNull());
  it.each(["12a", "1 2", "-1", "1.5", "+65", "١٢"])("%j → invalid_number", (v) => expect(numericOnly()(v)).toBe("invalid_number"));
  it("accepts numbers as values", () => expect(numericOnly()(123)).toBeNull());
  it("the message is configurable", () => expect(numericOnly("Phone must be digits")("x")).toBe("Phone must be digits"));
});

describe("Minimum length: at least N characters; message defaults to 'At_least_{N}_characters'", () => {
  it("passes at N and above, empty allowed", () => {
    expect(minLength(8)("12345678")).toBeNull();
    expect(minLength(8)("123456789")).toBeNull();
    expect(minLength(8)("")).toBeNull();
    expect(minLength(8)(null)).toBeNull();
  });
  it("fails below N with the default message", () => {
    expect(minLength(8)("1234567")).toBe("At_least_8_characters");
    expect(minLength(3)("ab")).toBe("At_least_3_characters");
    expect(MESSAGES.minLength(6)).toBe("At_least_6_characters");
  });
  it("counts characters, not UTF-16 units", () => expect(minLength(3)("😀😀")).toBe("At_least_3_characters"));
  it("the message is configurable", () => expect(minLength(2, "too short")("a")).toBe("too short"));
});

describe("firstError", () => {
  it("returns the first failing rule's message", () => {
    expect(firstError("a b", [username, minLength(5)])).toBe("Not allow space for username");
    expect(firstError("ab", [username, minLength(5)])).toBe("At_least_5_characters");
    expect(firstError("abcdef", [username, minLength(5)])).toBeNull();
  });
});

describe("Avatar upload: gif, jpeg and png, at most 5,000,000 bytes", () => {
  it("the limit is 5,000,000 bytes", () => {
    expect(IMAGE_MAX_BYTES).toBe(5_000_000);
    expect(imageFile({ size: 5_000_000 })).toBeNull();
    expect(imageFile({ size: 5_000_001 })).toBe("The image size exceeds the allowable limit.");
  });
  it.each([
    [{ type: "image/gif" }, true],
    [{ type: "image/jpeg" }, true],
    [{ type: "image/png" }, true],
    [{ type: "image/webp" }, false],
    [{ type: "image/svg+xml" }, false],
    [{ name: "a.PNG" }, true],
    [{ name: "a.jpg" }, true],
    [{ name: "a.bmp" }, false],
  ])("%j accepted: %s", (file, ok) => expect(isAcceptedImage(file)).toBe(ok));
  it("the failed-upload text", () => expect(MESSAGES.uploadFailed).toBe("Upload failed!"));
});

describe("a period's end date", () => {
  it("may not fall on a day before its start; the same day or a missing date passes", () => {
    const day = (d: string) => dayjs(d);
    expect(endsBeforeStart(day("2026-03-01"), day("2026-03-02"))).toBe(true);
    expect(endsBeforeStart(day("2026-03-02T08:00"), day("2026-03-02T17:00"))).toBe(false);
    expect(endsBeforeStart(undefined, day("2026-03-02"))).toBe(false);
    expect(notBeforeMessage("End Date", "Start Date")).toBe("The end date cannot be before the start date.");
  });
  it("a date-time end may not be at a moment before its start", () => {
    expect(endsBeforeStart(dayjs("2026-03-02T08:00"), dayjs("2026-03-02T17:00"), "minute")).toBe(true);
    expect(endsBeforeStart(dayjs("2026-03-02T17:00"), dayjs("2026-03-02T17:00"), "minute")).toBe(false);
    expect(notBeforeMessage("End Time", "Start Time")).toBe("The end time cannot be before the start time.");
  });
});
