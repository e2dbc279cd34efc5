import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { Root } from "./app/Root.tsx";
import { installChunkErrorReload } from "./app/lazy.ts";

installChunkErrorReload();

const style = document.createElement("style");
style.textContent = `body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.boot-spinner{width:32px;height:32px;border:3px solid #e6f4ff;border-top-color:#1677ff;border-radius:50%;animation:boot-spin 0.8s linear infinite}
@keyframes boot-spin{to{transform:rotate(360deg)}}`;
document.head.appendChild(style);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <BrowserRouter>
      <Root />
    </BrowserRouter>
  </StrictMode>,
);
