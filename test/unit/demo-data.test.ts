// The demo data `npm start` seeds: what the payment sandbox keeps (in R2) must match every payment the
// seed records as paid, or refunding a seeded consultation (its dispute, its late payment) fails.
import { describe, expect, it } from "vitest";

import { buildSeedSql, demoSandboxTransactions } from "../../scripts/demo-data";

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
  it("holds a successful transaction, of the same amount, for every payment the seed records as paid", async () => {
    const now = new Date("2026-11-01T09:00:00Z");
    const paid = seededPayments(await buildSeedSql(now)).filter((payment) =>
      ["paid", "paid_after_expiry"].includes(String(payment.status)),
    );
    expect(paid.length).toBeGreaterThan(3);
    const sandbox = new Map(demoSandboxTransactions(now).map(({ key, record }) => [key, record]));
    for (const payment of paid) {
      const record = sandbox.get(`payment-sandbox/${payment.tx_ref}`);
      expect(record, `no sandbox transaction for ${payment.tx_ref}`).toMatchObject({
        txRef: payment.tx_ref,
        amountSantim: payment.amount_santim,
        status: "success",
        currency: "ETB",
        reference: expect.stringMatching(/^SBX/),
      });
    }
  });
});
