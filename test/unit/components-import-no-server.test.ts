import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

import config from "../../eslint.config.js";

// Components reach the browser, so eslint.config.js forbids them any .server import, even a type's;
// these cases lint with the project's own setting of the rule and show what it catches and lets through.
const componentsBlock = config.find((block) => block.files?.includes("app/components/**"));
const linter = new Linter({ configType: "flat", cwd: "/project" });

/** The lines of `code` whose import the rule refuses, in the file at `path`. */
function refused(code: string, path: string) {
  return linter
    .verify(code, [{ files: ["**/*.{ts,tsx}"], languageOptions: { parser: tseslint.parser } }, componentsBlock!], {
      filename: `/project/${path}`,
    })
    .map((problem) => `${problem.line} ${problem.ruleId}`);
}

describe("a component importing a server module", () => {
  it("is refused whether the import is a value, a type, a re-export or a .server folder", () => {
    const code = [
      'import { doctorCard } from "~/server/doctor-card.server";',
      'import type { IntakeFormWords } from "~/server/intake-words.server.ts";',
      'export type { Database } from "../server/db/client.server";',
      'import { env } from "~/.server/env";',
    ].join("\n");
    expect(refused(code, "app/components/request-wizard/example.tsx")).toEqual([1, 2, 3, 4].map((line) => `${line} no-restricted-imports`));
  });

  it("is allowed outside components, and shared modules are allowed everywhere", () => {
    expect(refused('import { doctorCard } from "~/server/doctor-card.server";', "app/routes/example.tsx")).toEqual([]);
    expect(
      refused(
        'import type { DoctorCard } from "~/domain/doctor-card";\nimport { serverless } from "~/serverless";',
        "app/components/example.tsx",
      ),
    ).toEqual([]);
  });
});
