import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

import oneWriter from "../../eslint-rules/one-writer.js";

// One writer per table is a lint rule on the syntax tree (eslint.config.js turns it on for the app, the
// rooms, the Worker entry and the scripts, with these tables); these cases show what it catches.
const OPTIONS = {
  tables: {
    consultations: { writers: "app/server/consultations/", statusWriter: "app/server/consultations/move.server.ts" },
    escrows: { writers: "app/server/money/escrow.server.ts" },
    disputes: { writers: "app/server/money/disputes.server.ts" },
    payments: { writers: "app/server/db/payments.server.ts" },
    refunds: { writers: "app/server/money/refunds.server.ts" },
    payouts: { writers: ["app/server/money/payouts.server.ts"] },
  },
};
const linter = new Linter({ configType: "flat", cwd: "/project" });

/** The problems the rule finds in `code`, in a file that imports the table as the app does. */
function problems(code: string, file: string) {
  return linter
    .verify(
      `import { consultations, disputes, escrows, mailOutbox, payments, payouts, refunds } from "~/db/schema";\n${code}`,
      [
        {
          files: ["**/*.ts"],
          languageOptions: { parser: tseslint.parser },
          plugins: { qoda: { rules: { "one-writer": oneWriter } } },
          rules: { "qoda/one-writer": ["error", OPTIONS] },
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

const ESCROWS = "app/server/money/escrow.server.ts";
const DISPUTES = "app/server/money/disputes.server.ts";
const PAYMENTS = "app/server/db/payments.server.ts";
const REFUNDS = "app/server/money/refunds.server.ts";
const PAYOUTS = "app/server/money/payouts.server.ts";
const CANCEL_PAID = "app/server/consultations/cancel-paid.server.ts";

describe("the one writer of each money table", () => {
  it("refuses a write of escrows, disputes, payments, refunds or payouts outside its writer, even in another writer", () => {
    for (const [write, table, writer, file] of <Array<[string, string, string, string]>>[
      ["db.update(escrows).set({ status: 'refunded' });", "escrows", ESCROWS, CANCEL_PAID],
      ["db.update(schema.escrows).set({ lastChangeId });", "escrows", ESCROWS, DISPUTES],
      ["db.run(sql`UPDATE ${escrows} SET status = 'held'`);", "escrows", ESCROWS, OUTSIDE],
      ["db.update(disputes).set({ status: 'resolved' });", "disputes", DISPUTES, ESCROWS],
      ["insertWhere(db, disputes, row, frozen);", "disputes", DISPUTES, OUTSIDE],
      ["db.update(payments).set({ refundedAt: now });", "payments", PAYMENTS, "app/server/admin/payment-records.server.ts"],
      ["db.run(\"UPDATE payments SET status = 'paid'\");", "payments", PAYMENTS, "app/server/consultations/confirm-payment.server.ts"],
      ["insertWhere(db, refunds, row, sql`changes() = 1`);", "refunds", REFUNDS, "app/server/admin/payment-records.server.ts"],
      ["db.run(sql`INSERT INTO refunds (id) VALUES (1)`);", "refunds", REFUNDS, OUTSIDE],
      ["db.update(payouts).set({ status: 'failed' });", "payouts", PAYOUTS, REFUNDS],
      ['db.run("DELETE FROM payouts");', "payouts", PAYOUTS, "scripts/seed.ts"],
    ]) {
      expect(problems(write, file), write).toEqual([`The ${table} table is written only in ${writer}: call its writer instead.`]);
    }
  });

  it("lets each writer write its own table, status and all, and anyone read it", () => {
    expect(problems("db.update(escrows).set({ ...move.set, status: move.to, updatedAt: move.now });", ESCROWS)).toEqual([]);
    expect(problems("db.insert(escrows).select(held).onConflictDoNothing();", ESCROWS)).toEqual([]);
    expect(problems("insertWhere(db, disputes, row, frozen); db.update(disputes).set({ status: 'resolved' });", DISPUTES)).toEqual([]);
    expect(problems("db.update(payments).set({ status: 'failed' });", PAYMENTS)).toEqual([]);
    expect(problems("insertWhere(db, refunds, row, onlyIf);", REFUNDS)).toEqual([]);
    expect(problems("db.update(payouts).set({ status: 'succeeded' });", PAYOUTS)).toEqual([]);
    for (const read of [
      "db.select().from(escrows).where(eq(escrows.status, 'in_review'));",
      "db.query.payments.findFirst();",
      "sql`SELECT 1 FROM ${refunds} WHERE ${refunds.status} = 'pending'`;",
      // A local object's field of the same name is not the table.
      "const rows = seedRows(); inserts('payments', columns, rows.payments);",
      "auditIfChanged(db, escrows, stamped, entry);",
    ]) {
      expect(problems(read, OUTSIDE), read).toEqual([]);
    }
  });

  it("names every table a raw statement writes", () => {
    expect(problems("db.run(sql`UPDATE escrows SET status = 'held'; DELETE FROM payouts`);", OUTSIDE)).toEqual([
      `The escrows table is written only in ${ESCROWS}: call its writer instead.`,
      `The payouts table is written only in ${PAYOUTS}: call its writer instead.`,
    ]);
  });
});
