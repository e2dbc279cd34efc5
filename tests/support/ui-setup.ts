import { afterAll, afterEach } from "vitest";
import { cleanup } from "@testing-library/react";

afterEach(() => cleanup());

/** A toast still showing: its closing timer is pending (a closed one keeps its wrapper, in its leave motion, in jsdom). */
const toastShowing = () => document.querySelector('.ant-message-notice-wrapper:not([class*="-leave"]), .ant-notification-notice-wrapper:not([class*="-leave"])');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Work still queued when a file ends must run while jsdom's window exists, or it fails after the environment is
// torn down ("window is not defined"): React's scheduler after the last unmount, and the closing timer of a toast
// shown near the end (antd's static message lives outside the roots cleanup() unmounts; its timer is not cleared).
afterAll(async () => {
  cleanup();
  for (const deadline = Date.now() + 10_000; toastShowing() && Date.now() < deadline; ) await pause(50);
  await pause(100);
});
