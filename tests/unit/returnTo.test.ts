import { describe, expect, it } from "vitest";
import { returnTarget } from "../../src/framework/returnTo.ts";

describe("a form goes back to where the user was", () => {
  it("returns to the list with its filters, page and sort when opened from it", () => {
    expect(returnTarget({ returnTo: "/company?current=2&filters[0][value]=Bright" }, "/company")).toBe("/company?current=2&filters[0][value]=Bright");
  });
  it("falls back to the bare list when opened from elsewhere or by its address", () => {
    expect(returnTarget({ returnTo: "/branch?current=3" }, "/company")).toBe("/company");
    expect(returnTarget(null, "/company")).toBe("/company");
    expect(returnTarget({ returnTo: 42 }, "/company")).toBe("/company");
    expect(returnTarget({ returnTo: "/company" }, undefined)).toBeUndefined();
  });
});
