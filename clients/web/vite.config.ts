import { defineConfig } from "vitest/config";

// The .proto files under <repo>/proto are imported as raw text (see src/proto.ts), so the
// dev server must be allowed to read two levels up.
export default defineConfig({
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  server: {
    fs: { allow: ["../.."] },
    proxy: { "/ws": { target: "ws://127.0.0.1:18080", ws: true } },
  },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  test: { include: ["test/**/*.test.{ts,tsx}"], environment: "node" },
});
