// Lint rules every file follows (npm run lint; CI runs it). Formatting is Prettier's, not ESLint's.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import simpleImportSort from "eslint-plugin-simple-import-sort";
import globals from "globals";
import tseslint from "typescript-eslint";

import oneConsultationWriter from "./eslint-rules/one-consultation-writer.js";

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
    // The one writer of consultations: the state machine's moves are the only way a status changes.
    files: ["app/**/*.{ts,tsx}", "party/**/*.ts", "server.ts", "scripts/**/*.ts"],
    plugins: { qoda: { rules: { "one-consultation-writer": oneConsultationWriter } } },
    rules: {
      "qoda/one-consultation-writer": [
        "error",
        { writers: "app/server/consultations/", moveModule: "app/server/consultations/move.server.ts" },
      ],
    },
  },
);
