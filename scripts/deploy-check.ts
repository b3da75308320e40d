// `npm run deploy:check` (CI runs it): what `npm run deploy` would upload, checked without a Cloudflare
// account. It bundles the Worker exactly as the deploy does (`wrangler deploy --dry-run --minify` with
// the production configuration in wrangler.toml) and fails when
//   - the Worker is over its gzip budget (docs/performance.md says why this figure),
//   - a binding or a setting the Worker reads is not documented in the README's Deploy section,
//   - a migration is not applied by a fresh local D1 (every one in migrations/, in order, none left).
// `--no-build` checks the build/ that is there.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { build, PROJECT_ROOT, queryLocalD1, runForOutput } from "../test/support/local-stack.ts";

/** The minified Worker's gzipped upload may not pass this (docs/performance.md, "Worker size"). */
export const WORKER_GZIP_BUDGET_KIB = 720;

/** How the deploy bundles the Worker: the production configuration, minified (source maps go with it). */
export const DEPLOY_FLAGS = ["--minify"];

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), "utf8");

/** The README's Deploy section: what a newcomer follows. */
function deploySection() {
  const readme = read("README.md");
  const start = readme.indexOf("\n## Deploy");
  const end = readme.indexOf("\n## ", start + 1);
  return start < 0 ? "" : readme.slice(start, end < 0 ? undefined : end);
}

/** Every setting the Worker reads from its environment: the keys of EnvSchema (app/server/env.server.ts). */
function settingsTheWorkerReads() {
  const source = read("app/server/env.server.ts");
  const schema = source.slice(source.indexOf("const EnvSchema"), source.indexOf(".superRefine("));
  return [...new Set([...schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!))];
}

/** The bindings the dry run lists (`env.DB (qoda)  D1 Database`). */
const bindingsIn = (dryRun: string) => [...dryRun.matchAll(/^env\.(\w+)/gm)].map((match) => match[1]!);

export async function checkDeploy(): Promise<{ problems: string[]; figures: string[] }> {
  const problems: string[] = [];
  const figures: string[] = [];
  const outDir = mkdtempSync(join(tmpdir(), "qoda-deploy-check-"));
  const stateDir = mkdtempSync(join(tmpdir(), "qoda-deploy-check-d1-"));
  try {
    const dryRun = await runForOutput("wrangler", ["deploy", "--dry-run", ...DEPLOY_FLAGS, "--outdir", outDir]);
    const upload = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(dryRun);
    if (!upload) problems.push(`wrangler's dry run printed no upload size:\n${dryRun}`);
    else {
      const gzipKib = Number(upload[2]);
      figures.push(`Worker: ${upload[1]} KiB, ${gzipKib} KiB gzipped (budget ${WORKER_GZIP_BUDGET_KIB} KiB)`);
      if (gzipKib > WORKER_GZIP_BUDGET_KIB)
        problems.push(`the Worker is ${gzipKib} KiB gzipped, over its ${WORKER_GZIP_BUDGET_KIB} KiB budget`);
    }

    const documented = deploySection();
    if (!documented) problems.push("README.md has no '## Deploy' section");
    const bindings = bindingsIn(dryRun);
    if (bindings.length === 0) problems.push("wrangler's dry run listed no bindings");
    for (const name of [...bindings, ...settingsTheWorkerReads()])
      if (!new RegExp(`\\b${name}\\b`).test(documented)) problems.push(`${name} is not documented in README.md's Deploy section`);
    figures.push(`documented: ${bindings.length} bindings and ${settingsTheWorkerReads().length} settings`);

    const migrations = readdirSync(join(PROJECT_ROOT, "migrations")).filter((file) => file.endsWith(".sql"));
    await runForOutput("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir]);
    const pending = await runForOutput("wrangler", ["d1", "migrations", "list", "DB", "--local", "--persist-to", stateDir]);
    if (!/No migrations to apply/i.test(pending)) problems.push(`a fresh local D1 still lists migrations to apply:\n${pending}`);
    const applied = await queryLocalD1<{ name: string }>(stateDir, "SELECT name FROM d1_migrations ORDER BY id");
    const appliedNames = applied.map((row) => row.name);
    const missing = migrations.filter((file) => !appliedNames.includes(file));
    if (missing.length > 0) problems.push(`migrations a fresh D1 did not apply: ${missing.join(", ")}`);
    figures.push(`migrations: ${appliedNames.length} of ${migrations.length} applied to a fresh local D1`);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  }
  return { problems, figures };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.argv.includes("--no-build")) await build({ quiet: true });
  const { problems, figures } = await checkDeploy();
  for (const figure of figures) console.log(figure);
  if (problems.length > 0) {
    console.error(`\nDeploy check: ${problems.length} problem(s)`);
    for (const problem of problems) console.error(`- ${problem}`);
    process.exit(1);
  }
  console.log("\nDeploy check: the Worker builds for production, within its budget, documented, every migration applies.");
}
