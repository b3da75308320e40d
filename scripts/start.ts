// `npm start`: build, migrate and seed the local D1, print the demo sign-ins, serve on a fixed port.
// `npm run reset` (--reset) first deletes the local state, for a fresh start.
import { randomBytes } from "node:crypto";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./demo-data.ts";
import { applyMigrations, build, PROJECT_ROOT, seedDemoData, startDevServer } from "./local-stack.ts";

const PORT = 8787;

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
await seedDemoData(undefined, { quiet: true });

const server = await startDevServer({ port: PORT, inheritOutput: false });
const width = Math.max(...DEMO_ACCOUNTS.map((account) => account.email.length));
console.log(`
Qoda is running at ${server.url}  (Amharic: ${server.url}/?lng=am)

Demo sign-ins (password for all: ${DEMO_PASSWORD})
${DEMO_ACCOUNTS.map((account) => `  ${account.email.padEnd(width)}  ${account.note}`).join("\n")}

Press Ctrl+C to stop. Data is kept in .wrangler/state; \`npm run reset\` starts fresh.
`);
server.process.stdout?.pipe(process.stdout);
server.process.stderr?.pipe(process.stderr);

const shutdown = () => void server.stop().then(() => process.exit(0));
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
server.process.on("exit", (code) => process.exit(code ?? 0));
