import { defineConfig } from "vitest/config";

// Layer (a): pure domain and resource checks, in Node. No Worker, no browser.
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: { include: ["test/unit/**/*.test.ts"], environment: "node" },
});
