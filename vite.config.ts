import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const server = `http://localhost:${process.env.PORT ?? 9000}`;

// In development Vite serves the app and proxies the three interfaces to the Node server.
export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: {
    port: 5173,
    proxy: {
      "/v1/graphql": { target: server, ws: true },
      "/api": server,
      "/auth": server,
      "/media": server,
    },
  },
});
