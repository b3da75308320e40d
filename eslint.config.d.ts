import type { Linter } from "eslint";

// The lint config's shape, so a unit test can take a block of it (test/unit/components-import-no-server.test.ts).
declare const config: Linter.Config[];
export default config;
