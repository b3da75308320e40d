import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

import oneConsultationWriter from "../../eslint-rules/one-consultation-writer.js";

// The one writer of consultations is a lint rule on the syntax tree (eslint.config.js turns it on for
// the app, the rooms, the Worker entry and the scripts); these cases show what it catches.
const OPTIONS = { writers: "app/server/consultations/", moveModule: "app/server/consultations/move.server.ts" };
const linter = new Linter({ configType: "flat", cwd: "/project" });

/** The problems the rule finds in `code`, in a file that imports the table as the app does. */
function problems(code: string, file: string) {
  return linter
    .verify(
      `import { consultations, mailOutbox } from "~/db/schema";\n${code}`,
      [
        {
          files: ["**/*.ts"],
          languageOptions: { parser: tseslint.parser },
          plugins: { qoda: { rules: { "one-consultation-writer": oneConsultationWriter } } },
          rules: { "qoda/one-consultation-writer": ["error", OPTIONS] },
        },
      ],
      { filename: `/project/${file}` },
    )
    .map((problem) => problem.message);
}

const OUTSIDE = "app/server/db/requests.server.ts";
const USE_CASE = "app/server/consultations/summary.server.ts";
const MOVE = "app/server/consultations/move.server.ts";

describe("the one writer of consultations", () => {
  it("refuses every way of writing the table outside the writer folder", () => {
    for (const write of [
      "db.update(consultations).set({ title });",
      "tx.insert( consultations ).values(row);",
      "db.delete(consultations);",
      "db.update(schema.consultations).set({ status });",
      "insertWhere(db, consultations, row, cap);",
      'import { consultations as c } from "~/db/schema"; db.update(c).set({ title });',
      "db.insert(schema.consultations).values(row);",
      "db.run(sql`UPDATE ${consultations} SET status = 'cancelled'`);",
      'db.run("update consultations set status = 1");',
      "db.run(sql`INSERT OR IGNORE INTO consultations (id) VALUES (1)`);",
      "db.run('DELETE FROM \"consultations\"');",
    ]) {
      expect(problems(write, OUTSIDE), write).toEqual([expect.stringContaining("written only in app/server/consultations/")]);
    }
  });

  it("lets anyone read it", () => {
    for (const read of [
      "db.query.consultations.findFirst();",
      "db.select().from(consultations);",
      "consultationFiles.update();",
      "db.update(consultationFiles).set({ status });",
      // A local list that happens to share the name is not the table.
      "function seed(consultations: string[]) { inserts(consultations); db.insert(rows(consultations)); }",
      "sql`SELECT * FROM consultations WHERE status = 'pending'`;",
    ]) {
      expect(problems(read, OUTSIDE), read).toEqual([]);
    }
  });

  it("lets a use case write the columns it owns and delete drafts, but not create or change a status", () => {
    expect(problems("db.update(consultations).set({ diagnosis, updatedAt: now });", USE_CASE)).toEqual([]);
    expect(problems("db.delete(consultations).where(isDraft);", USE_CASE)).toEqual([]);
    for (const write of [
      "db.update(consultations).set({ status: 'cancelled' });",
      'db.update(consultations).set({ "status": next });',
      "db.update(consultations).set({ ...changes });",
      "db.update(consultations).set(changes);",
      "db.insert(consultations).values(row);",
      "db.run(sql`UPDATE ${consultations} SET title = ''`);",
      "db.run(sql`INSERT INTO ${consultations} (id) SELECT 1`);",
      "insertWhere(db, consultations, row, cap);",
    ]) {
      expect(problems(write, USE_CASE), write).toEqual([expect.stringContaining("Only app/server/consultations/move.server.ts")]);
    }
  });

  it("lets the move module create and move", () => {
    expect(problems("db.update(consultations).set({ ...plan.changes, lastMoveId });", MOVE)).toEqual([]);
    expect(problems("db.run(sql`INSERT INTO ${consultations} (${names}) SELECT ${values} WHERE ${cap}`);", MOVE)).toEqual([]);
    expect(problems("insertWhere(db, consultations, row, onlyIf);", MOVE)).toEqual([]);
    expect(problems("insertWhere(db, mailOutbox, mail, moved);", OUTSIDE)).toEqual([]);
  });
});
