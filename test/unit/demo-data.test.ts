// The demo data `npm start` seeds: what the payment sandbox keeps (in R2) must match every payment the
// seed records as paid, or refunding a seeded consultation (its dispute, its late payment) fails.
import { describe, expect, it } from "vitest";

import { demoSandboxRecords, seedStatements } from "../support/demo-data";

/** The seed's payments rows, each as its columns and values (the seed writes plain SQL literals). */
function seededPayments(seedSql: string) {
  const rows = [...seedSql.matchAll(/INSERT OR IGNORE INTO payments \(([^)]*)\) VALUES \((.*)\);/g)];
  return rows.map(([, columns, values]) => {
    const literals = [...values!.matchAll(/'(?:[^']|'')*'|[^,\s][^,]*/g)].map(([literal]) =>
      literal.startsWith("'") ? literal.slice(1, -1).replace(/''/g, "'") : literal === "NULL" ? null : Number(literal),
    );
    return Object.fromEntries(columns!.split(", ").map((column, index) => [column, literals[index]]));
  });
}

describe("the demo's payment sandbox", () => {
  it("holds a transaction of the same amount for every payment the seed records as paid, reversed for the one charged back", async () => {
    const now = new Date("2026-11-01T09:00:00Z");
    const seedSql = (await seedStatements(now)).join("\n");
    const paid = seededPayments(seedSql).filter((payment) => ["paid", "paid_after_expiry"].includes(String(payment.status)));
    expect(paid.length).toBeGreaterThan(3);
    const sandbox = new Map(demoSandboxRecords(now).map(({ key, record }) => [key, record]));
    for (const payment of paid) {
      const record = sandbox.get(`payment-sandbox/${payment.tx_ref}`);
      // Paid, or taken back by the patient's bank (the demo's chargeback, whose escrow the seed freezes).
      const chargedBack = new RegExp(
        `INSERT OR IGNORE INTO escrows \\([^)]*\\) VALUES \\('[^']*', '${payment.id}', [^)]*'charged_back'`,
      ).test(seedSql);
      expect(record, `no sandbox transaction for ${payment.tx_ref}`).toMatchObject({
        txRef: payment.tx_ref,
        amountSantim: payment.amount_santim,
        status: chargedBack ? "reversed" : "success",
        currency: "ETB",
        reference: expect.stringMatching(/^SBX/),
      });
    }
  });
});

describe("the demo's money for an admin", () => {
  it("has a frozen chargeback, a refund stuck before an admin and the chargeback's difference to resolve", async () => {
    const seedSql = (await seedStatements(new Date("2026-11-01T09:00:00Z"))).join("\n");
    expect(seedSql).toMatch(/INSERT OR IGNORE INTO escrows \([^)]*\) VALUES \([^)]*'charged_back'/);
    expect(seedSql).toMatch(/INSERT OR IGNORE INTO refunds \([^)]*\) VALUES \([^)]*'pending'[^)]*'attempts_exhausted'/);
    expect(seedSql.match(/INSERT OR IGNORE INTO reconciliation_differences/g)).toHaveLength(1);
    expect(seedSql).toMatch(/INSERT OR IGNORE INTO reconciliation_runs/);
  });
});
