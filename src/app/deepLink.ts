/**
 * Deep links /posts/{id} and /resource/detail/{id} (spec part 1 §2): on iPhone, iPad or Android try the
 * mobile app through its custom scheme, then after 2 seconds go to the app store; others go to the website.
 */
import type { AppConfig } from "./config.ts";

export type Device = "ios" | "android" | "other";

export function detectDevice(userAgent: string, maxTouchPoints = 0): Device {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return "ios";
  // iPadOS presents itself as a Mac with a touch screen.
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return "ios";
  if (/Android/i.test(userAgent)) return "android";
  return "other";
}

export interface DeepLinkPlan {
  /** Opened first (custom scheme) on a phone or tablet. */
  appUrl?: string;
  /** Where the browser goes: the store (after the delay) or the website (at once). */
  fallbackUrl: string;
  delayMs: number;
}

export function deepLinkPlan(kind: "post" | "resource", id: string, device: Device, cfg: AppConfig): DeepLinkPlan {
  const path = kind === "post" ? `posts/${encodeURIComponent(id)}` : `resource/detail/${encodeURIComponent(id)}`;
  if (device === "other") return { fallbackUrl: `${cfg.websiteUrl.replace(/\/$/, "")}/${path}`, delayMs: 0 };
  return {
    appUrl: `${cfg.appScheme}${path}`,
    fallbackUrl: device === "ios" ? cfg.appStoreUrl.ios : cfg.appStoreUrl.android,
    delayMs: cfg.appStoreDelayMs,
  };
}
