// `npm run deploy`: to the Cloudflare account wrangler is signed in to (`npx wrangler login`), after
// the same checks CI runs. It builds, checks, applies pending D1 migrations to the real database, then
// uploads the Worker exactly as the check bundled it. README "Deploy" says what to set up once before.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { build, PROJECT_ROOT, run } from "../test/support/local-stack.ts";
import { checkDeploy, DEPLOY_FLAGS } from "./deploy-check.ts";

const PLACEHOLDER_DATABASE_ID = "00000000-0000-0000-0000-000000000000";
if (readFileSync(join(PROJECT_ROOT, "wrangler.toml"), "utf8").includes(PLACEHOLDER_DATABASE_ID)) {
  console.error("deploy: wrangler.toml still has the placeholder database_id. Run `npx wrangler d1 create qoda` and put its id there.");
  process.exit(1);
}

await build();
const { problems, figures } = await checkDeploy();
for (const figure of figures) console.log(figure);
if (problems.length > 0) {
  console.error(`deploy: stopped before anything was changed; ${problems.length} problem(s):`);
  for (const problem of problems) console.error(`- ${problem}`);
  process.exit(1);
}
// Migrations first: the new code may read a column the old code never wrote, never the reverse (ADR 0039).
await run("wrangler", ["d1", "migrations", "apply", "DB", "--remote"]);
await run("wrangler", ["deploy", ...DEPLOY_FLAGS]);
