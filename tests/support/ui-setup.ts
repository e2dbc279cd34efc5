import { afterAll, afterEach } from "vitest";
import { cleanup } from "@testing-library/react";

afterEach(() => cleanup());

// React's scheduler may still have a task queued after the last unmount; let it run while jsdom's
// window still exists, so it does not fail after the environment is torn down.
afterAll(async () => {
  cleanup();
  await new Promise((resolve) => setTimeout(resolve, 100));
});
