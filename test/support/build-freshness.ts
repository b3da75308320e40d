// Whether build/ is the code under test. Kept apart from local-stack.ts, with nothing but Node's own
// modules: the Workers layer's global setup imports it, and Vitest transforms everything a global setup
// imports under the Workers plugin (wrangler and miniflare, 21 MB, cost 15 s of CPU a project).
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const PROJECT_ROOT = new URL("../..", import.meta.url).pathname;

/** What `remix vite:build` reads: a change to any of these after the last build leaves build/ stale. */
const BUILD_INPUTS = ["app", "public", "vite.config.ts"];
const BUILT_SERVER = join(PROJECT_ROOT, "build", "server", "index.js");

function newestChange(path: string): { path: string; ms: number } {
  const stats = statSync(path);
  if (!stats.isDirectory()) return { path, ms: stats.mtimeMs };
  return readdirSync(path)
    .map((entry) => newestChange(join(path, entry)))
    .reduce((newest, entry) => (entry.ms > newest.ms ? entry : newest), { path, ms: 0 });
}

/**
 * Why build/ cannot be tested as it is (missing, or older than a source it is built from), or null.
 * The Workers tests and the journeys refuse to run against a stale build rather than pass or fail on
 * code that is no longer there; `npm test` builds once before them.
 */
export function staleBuildReason(): string | null {
  const rebuild = "Run `npm run build` first (`npm test` builds on its own).";
  if (!existsSync(BUILT_SERVER)) return `build/ is missing. ${rebuild}`;
  const builtMs = statSync(BUILT_SERVER).mtimeMs;
  const newest = BUILD_INPUTS.map((input) => join(PROJECT_ROOT, input))
    .filter((input) => existsSync(input))
    .map(newestChange)
    .reduce((a, b) => (b.ms > a.ms ? b : a));
  if (newest.ms <= builtMs) return null;
  return `build/ is older than ${newest.path.slice(PROJECT_ROOT.length)}, so it is not the code under test. ${rebuild}`;
}
