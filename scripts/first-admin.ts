// `npm run admin:first -- --email … --first-name … --last-name … [--language am] --site https://qoda.et
// (--remote | --persist-to <dir>)`: once per deployment, the first admin. It prints a one-time link
// (72 hours) where they choose their own password; no password is ever set or printed by the command.
// It does nothing once any admin exists (later admins are added from the admin dashboard).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { runForOutput } from "../test/support/local-stack.ts";
import { type FirstAdmin, firstAdminProblem, firstAdminStatements } from "./first-admin-sql.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string", default: "" },
    "first-name": { type: "string", default: "" },
    "last-name": { type: "string", default: "" },
    language: { type: "string", default: "en" },
    site: { type: "string", default: "" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});

const admin = {
  email: values.email,
  firstName: values["first-name"],
  lastName: values["last-name"],
  language: values.language,
} as FirstAdmin;
const problem =
  firstAdminProblem(admin) ??
  (URL.canParse(values.site) ? null : "--site must be the site's address, e.g. https://qoda.et") ??
  (values.remote === Boolean(values["persist-to"]) ? "give --remote (the deployed D1) or --persist-to <dir> (a local one)" : null);
if (problem) {
  console.error(`admin:first: ${problem}`);
  process.exit(2);
}

const where = values.remote ? ["--remote"] : ["--local", "--persist-to", values["persist-to"]!];
const { userId, token, statements } = await firstAdminStatements(admin);
const dir = mkdtempSync(join(tmpdir(), "qoda-first-admin-"));
try {
  const file = join(dir, "first-admin.sql");
  writeFileSync(file, `${statements.join(";\n")};\n`);
  await runForOutput("wrangler", ["d1", "execute", "DB", ...where, "--yes", `--file=${file}`]);
  const made = await runForOutput("wrangler", [
    "d1",
    "execute",
    "DB",
    ...where,
    "--json",
    "--command",
    `SELECT count(*) AS made FROM users WHERE id = '${userId}'`,
  ]);
  if ((JSON.parse(made) as Array<{ results: Array<{ made: number }> }>)[0]!.results[0]!.made !== 1) {
    console.error("admin:first: an admin already exists, so nothing was made. Ask them to add you (Admin dashboard → Add admin).");
    process.exit(1);
  }
  console.log(`The first admin, ${admin.email}, chooses a password here (the link works once, for 72 hours):`);
  console.log(`${new URL("/invite", values.site).href}?token=${token}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
