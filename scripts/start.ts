// `npm start`: build, migrate and seed the local D1, print the demo sign-ins, serve on a fixed port
// (PORT overrides it). `npm run reset` (--reset) first deletes the local state, for a fresh start.
// `npm run dev` (--watch) does the same, then rebuilds the app whenever a source file changes;
// `wrangler dev` reloads the Worker once the new build lands.
import { randomBytes } from "node:crypto";
import { existsSync, rmSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";

import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../test/support/demo-data.ts";
import { applyMigrations, build, PROJECT_ROOT, seedDemoData, startDevServer } from "../test/support/local-stack.ts";

const PORT = Number(process.env.PORT ?? 8787);
const WATCHED_FOLDERS = ["app", "party", "public"];
/** Edits arrive in bursts (a save touches several files); one rebuild per burst. */
const REBUILD_QUIET_MS = 300;

if (process.argv.includes("--reset")) {
  rmSync(join(PROJECT_ROOT, ".wrangler", "state"), { recursive: true, force: true });
  console.log("Local data deleted: starting fresh.");
}

// Local secrets, made once per checkout. APP_ENV=development turns on the local stand-ins.
const devVars = join(PROJECT_ROOT, ".dev.vars");
if (!existsSync(devVars)) {
  writeFileSync(devVars, `APP_ENV=development\nSESSION_SECRET=${randomBytes(32).toString("hex")}\n`);
}

console.log("Building…");
await build({ quiet: true });
console.log("Applying migrations to the local D1…");
await applyMigrations(undefined, { quiet: true });
console.log("Seeding demo data…");
await seedDemoData();

const server = await startDevServer({ port: PORT, inheritOutput: false, localTraces: true });
const width = Math.max(...DEMO_ACCOUNTS.map((account) => account.email.length));
console.log(`
Qoda is running at ${server.url}  (Amharic: ${server.url}/?lng=am)

Demo sign-ins (password for all: ${DEMO_PASSWORD})
${DEMO_ACCOUNTS.map((account) => `  ${account.email.padEnd(width)}  ${account.note}`).join("\n")}

Press Ctrl+C to stop. Data is kept in .wrangler/state; \`npm run reset\` starts fresh.
`);
server.process.stdout?.pipe(process.stdout);
server.process.stderr?.pipe(process.stderr);

if (process.argv.includes("--watch")) rebuildOnChange();

const shutdown = () => void server.stop().then(() => process.exit(0));
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
server.process.on("exit", (code) => process.exit(code ?? 0));

function rebuildOnChange() {
  let timer: NodeJS.Timeout | undefined;
  let building = false;
  let changedWhileBuilding = false;
  const rebuild = async () => {
    if (building) return void (changedWhileBuilding = true);
    building = true;
    const startedAt = Date.now();
    try {
      await build({ quiet: true });
      console.log(`Rebuilt in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    } catch (error) {
      console.error(`Build failed:\n${error instanceof Error ? error.message : String(error)}`);
    }
    building = false;
    if (changedWhileBuilding) {
      changedWhileBuilding = false;
      void rebuild();
    }
  };
  for (const folder of WATCHED_FOLDERS) {
    watch(join(PROJECT_ROOT, folder), { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(() => void rebuild(), REBUILD_QUIET_MS);
    });
  }
  console.log(`Watching ${WATCHED_FOLDERS.join(", ")}/ for changes.`);
}
