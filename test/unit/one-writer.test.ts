import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

import { describe, expect, it } from "vitest";

// Every write of the consultations table (its status above all) lives in app/server/consultations/,
// so a status change always goes through the state machine and its conditional UPDATE.
const root = new URL("../..", import.meta.url).pathname;
const WRITER_DIR = "app/server/consultations/";

/** A drizzle write of the table, or raw SQL writing it by name or by `${consultations}`. */
const WRITES_CONSULTATIONS =
  /\.(?:update|insert|delete)\(\s*consultations\s*\)|\b(?:UPDATE|INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM|REPLACE\s+INTO)\s+(?:\$\{\s*consultations\s*\}|["`]?consultations["`]?\b)/i;

function sourceFiles(path: string): string[] {
  if (statSync(path).isFile()) return /\.tsx?$/.test(path) ? [path] : [];
  return readdirSync(path).flatMap((entry) => (entry === "node_modules" ? [] : sourceFiles(join(path, entry))));
}

const files = ["app", "party", "server.ts"].flatMap((path) => sourceFiles(join(root, path))).map((path) => relative(root, path));
const writers = files.filter((file) => WRITES_CONSULTATIONS.test(readFileSync(join(root, file), "utf8")));

describe("the one writer of consultations", () => {
  it("recognises each way of writing the table", () => {
    for (const write of [
      "db.update(consultations).set({ status })",
      "tx.insert( consultations ).values(row)",
      "db.delete(consultations)",
      "sql`UPDATE ${consultations} SET status = 'cancelled'`",
      'db.run("update consultations set status = 1")',
      "INSERT OR IGNORE INTO consultations (id) VALUES (1)",
      'DELETE FROM "consultations"',
    ])
      expect(WRITES_CONSULTATIONS.test(write), write).toBe(true);
    for (const read of ["db.query.consultations.findFirst()", "db.select().from(consultations)", "consultationFiles.update"])
      expect(WRITES_CONSULTATIONS.test(read), read).toBe(false);
  });

  it("is app/server/consultations/ alone", () => {
    expect(writers.length).toBeGreaterThan(0);
    expect(writers.filter((file) => !file.startsWith(WRITER_DIR))).toEqual([]);
    expect(writers).toContain(`${WRITER_DIR}move.server.ts`);
  });

  it("changes a status only through the move (the state machine's plan in one conditional UPDATE)", () => {
    const updates = writers.flatMap((file) =>
      [...readFileSync(join(root, file), "utf8").matchAll(/\.update\(\s*consultations\s*\)\s*\.set\(([\s\S]*?)\)\s*\.where\(/g)].map(
        (match) => ({ file, columns: match[1]! }),
      ),
    );
    expect(updates.map((update) => update.file)).toContain(`${WRITER_DIR}move.server.ts`);
    // Any other update names its columns, and status is not one of them.
    for (const update of updates.filter((update) => update.file !== `${WRITER_DIR}move.server.ts`)) {
      expect(update.columns.trim().startsWith("{"), update.file).toBe(true);
      expect(update.columns, update.file).not.toMatch(/\bstatus\b|\.\.\./);
    }
    expect(writers.filter((file) => /UPDATE\s+\S*consultations/i.test(readFileSync(join(root, file), "utf8")))).toEqual([]);
  });
});
