// Lint rules every file follows (npm run lint; CI runs it). Formatting is Prettier's, not ESLint's.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import simpleImportSort from "eslint-plugin-simple-import-sort";
import globals from "globals";
import tseslint from "typescript-eslint";

import oneWriter from "./eslint-rules/one-writer.js";

export default tseslint.config(
  { ignores: ["build/**", ".wrangler/**", "node_modules/**", "test-results/**", "worker-configuration.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks, "simple-import-sort": simpleImportSort },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "simple-import-sort/imports": "error",
      "simple-import-sort/exports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // Components reach the browser: they import no server module, not even for a type (STYLE.md, issue 28).
    files: ["app/components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: String.raw`\.server(?:[./]|$)`,
              message: "A component imports no .server module; move what it needs to app/domain or a shared module.",
            },
            {
              // Routes stand above components: a shape both need (an action's answer) belongs in app/domain.
              regex: String.raw`^~/routes/`,
              message: "A component imports no route; move the shape both need to app/domain.",
            },
          ],
        },
      ],
    },
  },
  {
    // Scripts and tests share test/support (issue 28): a script never reaches into a test layer, and
    // the support module never into scripts, so neither side's files can drag in the other's.
    files: ["scripts/**", "test/support/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: String.raw`(^|/)test/(e2e|workers|unit)/|(^|/)scripts/|^\.\./(e2e|workers|unit)/`,
              message: "Scripts and tests share test/support; move what both need there.",
            },
          ],
        },
      ],
    },
  },
  {
    // server/db holds queries only, one module per entity: it calls nothing above it (ARCHITECTURE.md, "The house").
    files: ["app/server/db/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: String.raw`^(?:~/server/(?!db/)|\.\./)`,
              message: "server/db imports no use case; compose its statements in the server module that owns the step.",
            },
          ],
        },
      ],
    },
  },
  {
    // One writer per table (docs/decisions/0016, 0046, 0047): each table's moves are the only way its status changes.
    files: ["app/**/*.{ts,tsx}", "party/**/*.ts", "server.ts", "scripts/**/*.ts", "test/support/**/*.ts"],
    plugins: { qoda: { rules: { "one-writer": oneWriter } } },
    rules: {
      "qoda/one-writer": [
        "error",
        {
          tables: {
            consultations: { writers: "app/server/consultations/", statusWriter: "app/server/consultations/move.server.ts" },
            escrows: { writers: "app/server/money/escrow.server.ts" },
            disputes: { writers: "app/server/money/disputes.server.ts" },
            payments: { writers: "app/server/db/payments.server.ts" },
            refunds: { writers: "app/server/money/refunds.server.ts" },
            payouts: { writers: "app/server/money/payouts.server.ts" },
            // Only the tidings create a notification (docs/decisions/0047); the rest mark them read or forget them.
            notifications: {
              writers: [
                "app/server/tidings.server.ts",
                "app/server/db/notifications.server.ts",
                "app/server/consultations/retention.server.ts",
                "app/server/privacy/close-account.server.ts",
              ],
              statusWriter: "app/server/tidings.server.ts",
            },
          },
        },
      ],
    },
  },
);
