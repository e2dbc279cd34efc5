import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";

const server = `http://localhost:${process.env.PORT ?? 9000}`;

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a .br and a .gz copy beside every text file of the build, at the highest levels (done once,
 * not per request); the server's static plugin sends the copy the browser accepts (issue 20).
 */
export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "backoffice:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const full = path.join(dir, name);
          if (name.startsWith(".")) return []; // .vite/manifest.json is for tools, not browsers
          return statSync(full).isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const data = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

// In development Vite serves the app and proxies the three interfaces to the Node server.
export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: "dist",
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
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
