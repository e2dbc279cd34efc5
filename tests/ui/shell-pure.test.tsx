/** The shell's small rules: deep-link plans, message keys, breadcrumbs, sign-in error text, chunk errors, footer. */
import { describe, expect, it } from "vitest";
import { deepLinkPlan, detectDevice } from "../../src/app/deepLink.ts";
import { config } from "../../src/app/config.ts";
import { t } from "../../src/app/i18n/index.ts";
import { breadcrumbTrail } from "../../src/layout/AppHeader.tsx";
import { signInErrorText } from "../../src/pages/auth/LoginPage.tsx";
import { LOCKED_MESSAGE, safeReturnPath } from "../../src/app/auth.ts";
import { isChunkLoadError } from "../../src/app/lazy.ts";
import { copyrightLine } from "../../src/layout/LayoutSkeleton.tsx";
import { lastRoleLabel } from "../../src/layout/roleLabels.ts";
import { graphqlToastText } from "../../src/app/errors.ts";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36";
const IPADOS = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15";

describe("deep links /posts/{id} and /resource/detail/{id}", () => {
  it("detects iPhone, iPad (also iPadOS) and Android", () => {
    expect(detectDevice(IPHONE)).toBe("ios");
    expect(detectDevice(IPADOS, 5)).toBe("ios");
    expect(detectDevice(IPADOS, 0)).toBe("other");
    expect(detectDevice(ANDROID)).toBe("android");
    expect(detectDevice(DESKTOP)).toBe("other");
  });

  it("phones try the custom scheme, then the app store after 2 seconds", () => {
    const plan = deepLinkPlan("post", "42", "ios", config);
    expect(plan.appUrl).toBe(`${config.appScheme}posts/42`);
    expect(plan.fallbackUrl).toBe(config.appStoreUrl.ios);
    expect(plan.delayMs).toBe(2000);
    expect(deepLinkPlan("resource", "7", "android", config)).toMatchObject({
      appUrl: `${config.appScheme}resource/detail/7`,
      fallbackUrl: config.appStoreUrl.android,
      delayMs: 2000,
    });
  });

  it("other devices go to the public website", () => {
    const plan = deepLinkPlan("post", "42", "other", config);
    expect(plan.appUrl).toBeUndefined();
    expect(plan.fallbackUrl).toBe(`${config.websiteUrl}/posts/42`);
  });
});

describe("message keys", () => {
  it("keep the spec's text, with N interpolated", () => {
    expect(t("invalid_number")).toBe("invalid_number");
    expect(t("At_least_{N}_characters", { N: 8 })).toBe("At_least_8_characters");
    expect(t("logout_confirm")).toBe("Do you want to Log out?");
    expect(t("list_counter", { from: 11, to: 20, total: 95 })).toBe("Viewing from 11 - 20 (out of 95 records)");
    expect(t("image_size_exceeded")).toBe("The image size exceeds the allowable limit.");
    expect(t("upload_failed")).toBe("Upload failed!");
    expect(t("no.such.key", undefined, "Fallback")).toBe("Fallback");
  });
});

describe("shell texts", () => {
  it("GraphQL error toast: the message followed by a period", () => {
    expect(graphqlToastText("field 'x' not found in type: 'query_root'")).toBe("field 'x' not found in type: 'query_root'.");
  });

  it("a locked account always reads the spec's text", () => {
    expect(signInErrorText({ success: false, statusCode: 403, message: LOCKED_MESSAGE, isBlocked: true })).toBe(LOCKED_MESSAGE);
    expect(signInErrorText({ success: false, statusCode: 423 })).toBe(LOCKED_MESSAGE);
    expect(signInErrorText({ success: false, statusCode: 401, message: "Incorrect username or password." })).toBe("Incorrect username or password.");
  });

  it("only app paths are kept as the return target", () => {
    expect(safeReturnPath("/finance/invoice?page=2")).toBe("/finance/invoice?page=2");
    expect(safeReturnPath("//evil.example")).toBeUndefined();
    expect(safeReturnPath("https://evil.example")).toBeUndefined();
    expect(safeReturnPath("/login?to=/x")).toBeUndefined();
  });

  it("breadcrumbs: group, menu page, page title", () => {
    expect(breadcrumbTrail("/company/abc/update")).toEqual([{ title: "Companies" }, { title: "Companies", path: "/company" }, { title: "Update Company" }]);
    expect(breadcrumbTrail("/attendance/list")).toEqual([{ title: "Attendance" }, { title: "Attendance List" }]);
  });

  it("recognises failed chunk loads", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/App-x.js"))).toBe(true);
    expect(isChunkLoadError(new Error("boom"))).toBe(false);
  });

  it("footer: current year in a copyright line; badge: the label of the last role", () => {
    expect(copyrightLine(2031)).toContain("© 2031");
    expect(copyrightLine()).toContain(String(new Date().getFullYear()));
    expect(lastRoleLabel(["front_desk", "hod"])).toBe("Head of Department");
  });
});
