// The demo data `npm start` seeds: what the payment sandbox keeps (in R2) must match every payment the
// seed records as paid, or refunding a seeded consultation (its dispute, its late payment) fails.
import { describe, expect, it } from "vitest";

import { demoRows, demoSandboxRecords, type SeedRow } from "../support/demo-data";

/** The rows the demo seeds into `table`, as the schema types them. */
const rowsOf = (rows: SeedRow[], table: SeedRow["table"]) => rows.filter((row) => row.table === table).map(({ row }) => row);

describe("the demo's payment sandbox", () => {
  it("holds a transaction of the same amount for every payment the seed records as paid, reversed for the one charged back", async () => {
    const now = new Date("2026-11-01T09:00:00Z");
    const rows = await demoRows(now);
    const paid = rowsOf(rows, "payments").filter((payment) => ["paid", "paid_after_expiry"].includes(String(payment.status)));
    expect(paid.length).toBeGreaterThan(3);
    const sandbox = new Map(demoSandboxRecords(now).map(({ key, record }) => [key, record]));
    for (const payment of paid) {
      const record = sandbox.get(`payment-sandbox/${String(payment.txRef)}`);
      // Paid, or taken back by the patient's bank (the demo's chargeback, whose escrow the seed freezes).
      const chargedBack = rowsOf(rows, "escrows").some((escrow) => escrow.paymentId === payment.id && escrow.status === "charged_back");
      expect(record, `no sandbox transaction for ${String(payment.txRef)}`).toMatchObject({
        txRef: payment.txRef,
        amountSantim: payment.amountSantim,
        status: chargedBack ? "reversed" : "success",
        currency: "ETB",
        reference: expect.stringMatching(/^SBX/),
      });
    }
  });
});

describe("the demo's money for an admin", () => {
  it("has a frozen chargeback, a refund stuck before an admin and the chargeback's difference to resolve", async () => {
    const rows = await demoRows(new Date("2026-11-01T09:00:00Z"));
    expect(rowsOf(rows, "escrows").filter((escrow) => escrow.status === "charged_back")).toHaveLength(1);
    expect(
      rowsOf(rows, "refunds").filter((refund) => refund.status === "pending" && refund.reviewReason === "attempts_exhausted"),
    ).toHaveLength(1);
    expect(rowsOf(rows, "reconciliation_differences")).toHaveLength(1);
    expect(rowsOf(rows, "reconciliation_runs")).toHaveLength(1);
  });

  it("writes every row through the schema's columns, once each: seeding twice adds nothing", async () => {
    const rows = await demoRows(new Date("2026-11-01T09:00:00Z"));
    expect(rows.every(({ sql }) => sql.startsWith("INSERT OR IGNORE INTO "))).toBe(true);
    // Fixed ids (the ledger's by its keys): a second seed's rows are the same rows.
    const again = await demoRows(new Date("2026-11-01T09:00:00Z"));
    const ids = (seeded: SeedRow[]) =>
      seeded.map(({ table, row }) => `${table}:${String(row.id ?? row.userId ?? row.consultationId ?? row.doctorId)}`);
    expect(ids(again)).toEqual(ids(rows));
  });
});
