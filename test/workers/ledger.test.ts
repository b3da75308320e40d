// The money ledger and escrow in the real D1: a confirmed payment is captured into its consultation's
// escrow once however often the provider repeats itself; the journal refuses to be changed; the patient's
// confirmation and the 72-hour schedule release the escrow once, to the doctor and the platform.
import { env } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, consultations, escrows, ledgerEntries, ledgerLines, payments, refunds } from "~/db/schema";
import { escrowReleased, type LedgerEntry, payoutSettled, refundSettled } from "~/domain/ledger";
import { CONSULTATION_FEE_SANTIM, splitRelease } from "~/domain/money";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { confirmConsultationComplete, releaseDueEscrows } from "~/server/money/escrow.server";
import { balanceOf, ledgerEntryStatements } from "~/server/money/ledger.server";

import { Visitor } from "./browser-like";
import { createUser, db, ORIGIN, sessionCookieFor } from "./fixtures";
import {
  config,
  endedAgo,
  ESCROW_RELEASE_AFTER_MS,
  paidAtProvider,
  paidConsultation,
  SANDBOX_CHARGE_SANTIM,
  signedWebhook,
} from "./money-fixtures";

const webhook = (txRef: string) =>
  signedWebhook({ event: "charge.success", tx_ref: txRef, status: "success", amount: "150.00", currency: "ETB" });

const entriesOfKey = (key: string) => db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, key));
/** The database's own refusal (drizzle wraps it as the cause of its error), or "written". */
const refusal = (attempt: Promise<unknown>) =>
  attempt.then(
    () => "written",
    (error: Error) => String(error.cause ?? error),
  );
const escrowNow = async (consultationId: string) =>
  (await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) }))!;

describe("capturing a payment", () => {
  it("holds the fee in the consultation's escrow once, for 100 webhooks at once", async () => {
    const { consultationId, doctorId, txRef } = await paidAtProvider();
    const answers = await Promise.all(Array.from({ length: 100 }, () => webhook(txRef)));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));

    const entries = await entriesOfKey(`payment:${txRef}:captured`);
    expect(entries).toHaveLength(1);
    const lines = await db.select().from(ledgerLines).where(eq(ledgerLines.entryId, entries[0]!.id));
    expect(
      lines
        .map(({ account, subject, amountSantim }) => ({ account, subject, amountSantim }))
        .sort((a, b) => a.amountSantim - b.amountSantim),
    ).toEqual([
      { account: "escrow", subject: consultationId, amountSantim: -CONSULTATION_FEE_SANTIM },
      { account: "provider_fees", subject: "", amountSantim: SANDBOX_CHARGE_SANTIM },
      { account: "provider_clearing", subject: "", amountSantim: CONSULTATION_FEE_SANTIM - SANDBOX_CHARGE_SANTIM },
    ]);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(-CONSULTATION_FEE_SANTIM);
    expect(await escrowNow(consultationId)).toMatchObject({
      status: "held",
      doctorId,
      amountSantim: CONSULTATION_FEE_SANTIM,
      releasedAt: null,
    });
  });

  it("captures a late payment and refunds it through the provider at once, once, with no hold for the doctor", async () => {
    const { consultationId, txRef } = await paidAtProvider();
    // The window closed before the provider's word came.
    await db
      .update(consultations)
      .set({ paymentDeadlineAt: new Date(Date.now() - 1_000) })
      .where(eq(consultations.id, consultationId));
    const outcomes = await Promise.all([1, 2, 3].map(() => confirmPayment(env, config(), ORIGIN, txRef, new Date())));
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(["late", "late", "late"]);
    expect(await entriesOfKey(`payment:${txRef}:captured`)).toHaveLength(1);
    // The whole amount left escrow for the patient, by one refund asked of the provider.
    const late = await db.query.refunds.findMany({ where: eq(refunds.consultationId, consultationId) });
    expect(late).toEqual([expect.objectContaining({ reason: "late_payment", channel: "provider", amountSantim: CONSULTATION_FEE_SANTIM })]);
    expect(await entriesOfKey(`refund:${late[0]!.reference}:started`)).toHaveLength(1);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) })).toBeUndefined();
  });

  it("keeps the books balanced: every account's balance sums to zero", async () => {
    await paidConsultation();
    const [books] = await db.all<{ total: number }>(sql`SELECT coalesce(sum(amount_santim), 0) AS total FROM ledger_lines`);
    expect(books!.total).toBe(0);
    const [unbalanced] = await db.all<{ entries: number }>(
      sql`SELECT count(*) AS entries FROM (SELECT entry_id FROM ledger_lines GROUP BY entry_id HAVING sum(amount_santim) <> 0)`,
    );
    expect(unbalanced!.entries).toBe(0);
  });
});

describe("the journal is append-only", () => {
  it("refuses to update or delete an entry or a line, in the database itself", async () => {
    const { txRef } = await paidConsultation();
    const [entry] = await entriesOfKey(`payment:${txRef}:captured`);
    const where = eq(ledgerEntries.id, entry!.id);
    expect(await refusal(db.update(ledgerEntries).set({ kind: "escrow_released" }).where(where))).toMatch(/ledger_entries is append-only/);
    expect(await refusal(db.delete(ledgerEntries).where(where))).toMatch(/ledger_entries is append-only/);
    expect(await refusal(db.update(ledgerLines).set({ amountSantim: 1 }).where(eq(ledgerLines.entryId, entry!.id)))).toMatch(
      /ledger_lines is append-only/,
    );
    expect(await refusal(db.delete(ledgerLines).where(eq(ledgerLines.entryId, entry!.id)))).toMatch(/ledger_lines is append-only/);
    expect(await entriesOfKey(`payment:${txRef}:captured`)).toHaveLength(1);
  });
});

describe("the database holds the money's invariants, whatever code writes", () => {
  /** An entry written as ledger.server writes it (the entry, then one statement per line, one batch). */
  const write = (entry: LedgerEntry) => {
    const [first, ...rest] = ledgerEntryStatements(db, entry, new Date());
    return db.batch([first!, ...rest]);
  };
  /** An entry row with its line count and lines, straight through drizzle, past the domain's checks. */
  const writeRaw = (
    lineCount: number,
    lines: Array<{ account: LedgerEntry["lines"][number]["account"]; subject: string; amountSantim: number }>,
  ) => {
    const entryId = crypto.randomUUID();
    return db.batch([
      db.insert(ledgerEntries).values({
        id: entryId,
        idempotencyKey: `test:${entryId}`,
        kind: "provider_fee_charged",
        lineCount,
        createdAt: new Date(),
      }),
      ...lines.map((line) => db.insert(ledgerLines).values({ entryId, ...line })),
    ]);
  };
  const entriesCount = async () => (await db.select({ id: ledgerEntries.id }).from(ledgerEntries)).length;

  it("refuses an entry whose lines do not sum to zero, and a line beyond its entry's count, writing nothing", async () => {
    const { txRef } = await paidConsultation();
    const before = await entriesCount();
    expect(
      await refusal(
        writeRaw(2, [
          { account: "provider_fees", subject: "", amountSantim: 100 },
          { account: "provider_clearing", subject: "", amountSantim: -99 },
        ]),
      ),
    ).toMatch(/ledger entry does not balance/);
    // The last line balances it, but it is one more than the entry said.
    expect(
      await refusal(
        writeRaw(2, [
          { account: "provider_fees", subject: "", amountSantim: 100 },
          { account: "provider_clearing", subject: "", amountSantim: -99 },
          { account: "provider_clearing", subject: "", amountSantim: -1 },
        ]),
      ),
    ).toMatch(/ledger entry (does not balance|has more lines than its line_count)/);
    const [captured] = await entriesOfKey(`payment:${txRef}:captured`);
    expect(await refusal(db.insert(ledgerLines).values({ entryId: captured!.id, account: "provider_fees", amountSantim: 1 }))).toMatch(
      /ledger entry has more lines than its line_count/,
    );
    expect(await entriesCount()).toBe(before);
    // A balanced one is written.
    expect(
      await refusal(
        writeRaw(2, [
          { account: "provider_fees", subject: "", amountSantim: 100 },
          { account: "provider_clearing", subject: "", amountSantim: -100 },
        ]),
      ),
    ).toBe("written");
  });

  it("holds the balance per line for INSERT … SELECT of many entries' lines at once, in any order", async () => {
    const entryIds = [crypto.randomUUID(), crypto.randomUUID()];
    const entryRow = (id: string) => ({
      id,
      idempotencyKey: `test:${id}`,
      kind: "provider_fee_charged" as const,
      lineCount: 3,
      createdAt: new Date(),
    });
    const [a, b] = entryIds as [string, string];
    // One statement for all the lines, read from a JSON array, as a set-based release writes them.
    const insertLines = (rows: Array<[string, string, number]>) =>
      db
        .insert(ledgerLines)
        .select(
          sql`SELECT lower(hex(randomblob(16))), value ->> 0, value ->> 1, '', value ->> 2 FROM json_each(${JSON.stringify(rows)}) ORDER BY key`,
        );
    const interleaved: Array<[string, string, number]> = [
      [a, "provider_clearing", -70],
      [b, "provider_fees", 5],
      [a, "provider_fees", 30],
      [b, "provider_clearing", -10],
      [b, "provider_fees", 5],
      [a, "provider_fees", 40],
    ];
    await db.batch([db.insert(ledgerEntries).values(entryRow(a)), db.insert(ledgerEntries).values(entryRow(b)), insertLines(interleaved)]);
    expect(
      await db
        .select()
        .from(ledgerLines)
        .where(sql`${ledgerLines.entryId} IN (${a}, ${b})`),
    ).toHaveLength(6);

    const [c, d] = [crypto.randomUUID(), crypto.randomUUID()];
    const unbalanced: Array<[string, string, number]> = [
      [c, "provider_fees", 5],
      [d, "provider_clearing", -10],
      [c, "provider_clearing", -10],
      [d, "provider_fees", 4],
      [c, "provider_fees", 5],
      [d, "provider_fees", 5],
    ];
    expect(
      await refusal(
        db.batch([db.insert(ledgerEntries).values(entryRow(c)), db.insert(ledgerEntries).values(entryRow(d)), insertLines(unbalanced)]),
      ),
    ).toMatch(/ledger entry does not balance/);
    expect(
      await db
        .select()
        .from(ledgerEntries)
        .where(sql`${ledgerEntries.id} IN (${c}, ${d})`),
    ).toHaveLength(0);
  });

  it("refuses a release larger than the escrow, and releases what it holds", async () => {
    const { consultationId, doctorId } = await paidConsultation();
    const release = escrowReleased({ consultationId, doctorId, amountSantim: CONSULTATION_FEE_SANTIM });
    // A santim more than it holds: refused, and its key stays free for the right amount.
    expect(await refusal(write(escrowReleased({ consultationId, doctorId, amountSantim: CONSULTATION_FEE_SANTIM + 1 })))).toMatch(
      /escrow released beyond what it holds/,
    );
    expect(await refusal(write(release))).toBe("written");
    expect(await refusal(write({ ...release, idempotencyKey: `test:${consultationId}:again` }))).toMatch(
      /escrow released beyond what it holds/,
    );
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(-splitRelease(CONSULTATION_FEE_SANTIM).doctorSantim);
  });

  it("refuses to settle a payout or a refund that was never sent", async () => {
    const { consultationId, doctorId, txRef } = await paidConsultation();
    const payment = await db.query.payments.findFirst({ where: eq(payments.txRef, txRef) });
    expect(await refusal(write(payoutSettled({ reference: crypto.randomUUID(), doctorId, amountSantim: 100 })))).toMatch(
      /payout settled beyond what was sent/,
    );
    expect(
      await refusal(write(refundSettled({ reference: crypto.randomUUID(), consultationId, paymentId: payment!.id, amountSantim: 100 }))),
    ).toMatch(/refund settled beyond what was sent/);
    expect(await balanceOf(db, "payouts_in_transit", doctorId)).toBe(0);
    expect(await balanceOf(db, "refunds_in_transit", consultationId)).toBe(0);
  });

  it("refuses refunds of a payment that would sum to more than it, counting none that failed", async () => {
    const { consultationId, txRef } = await paidConsultation();
    const payment = (await db.query.payments.findFirst({ where: eq(payments.txRef, txRef) }))!;
    const refund = (amountSantim: number, status: "pending" | "failed" = "pending") => {
      const id = crypto.randomUUID();
      return { id, paymentId: payment.id, consultationId, reference: id, amountSantim, reason: "dispute" as const, status };
    };
    expect(await refusal(db.insert(refunds).values(refund(payment.amountSantim + 1)))).toMatch(/refunds exceed the payment/);
    expect(await refusal(db.insert(refunds).values(refund(payment.amountSantim + 1, "failed")))).toMatch(/refunds exceed the payment/);
    const first = refund(payment.amountSantim);
    expect(await refusal(db.insert(refunds).values(first))).toBe("written");
    expect(
      await refusal(
        db
          .update(refunds)
          .set({ amountSantim: payment.amountSantim + 1 })
          .where(eq(refunds.id, first.id)),
      ),
    ).toMatch(/refunds exceed the payment/);
    // A second refund while one is under way is the unique index's: it writes nothing, refused by no trigger.
    expect(await refusal(db.insert(refunds).values(refund(payment.amountSantim)).onConflictDoNothing())).toBe("written");
    expect(await db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).toHaveLength(1);
    // One failed: another may be asked for the whole amount, and the failed one cannot come back beside it
    // (the unique index refuses it first now; the trigger would, were partial refunds allowed).
    expect(await refusal(db.update(refunds).set({ status: "failed" }).where(eq(refunds.id, first.id)))).toBe("written");
    expect(await refusal(db.insert(refunds).values(refund(payment.amountSantim)))).toBe("written");
    expect(await refusal(db.update(refunds).set({ status: "pending" }).where(eq(refunds.id, first.id)))).toMatch(
      /UNIQUE constraint failed|refunds exceed the payment/,
    );
  });
});

describe("releasing escrow", () => {
  const { doctorSantim, platformSantim } = splitRelease(CONSULTATION_FEE_SANTIM);

  it("splits 150 ETB as 120 to the doctor and 30 to the platform", () => {
    expect({ doctorSantim, platformSantim }).toEqual({ doctorSantim: 12_000, platformSantim: 3_000 });
  });

  it("releases at once when the patient confirms the consultation is complete, once", async () => {
    const { consultationId, patientId, doctorId } = await paidConsultation();
    const stranger = await createUser("patient");
    // Not before the doctor has ended it, and never for someone else.
    expect(await confirmConsultationComplete(db, patientId, consultationId, new Date())).toEqual({ ok: false, reason: "not_ended" });
    await endedAgo(consultationId, 60_000);
    expect(await confirmConsultationComplete(db, stranger, consultationId, new Date())).toEqual({ ok: false, reason: "not_found" });
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(0);

    const outcomes = await Promise.all([1, 2, 3].map(() => confirmConsultationComplete(db, patientId, consultationId, new Date())));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(await entriesOfKey(`consultation:${consultationId}:released`)).toHaveLength(1);
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(-doctorSantim);
    expect(await escrowNow(consultationId)).toMatchObject({ status: "released" });
    expect((await escrowNow(consultationId)).confirmedAt).not.toBeNull();
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "escrow.released"), eq(auditLog.targetId, consultationId)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: patientId, details: { by: "patient", amountSantim: CONSULTATION_FEE_SANTIM } });
    expect(await confirmConsultationComplete(db, patientId, consultationId, new Date())).toEqual({ ok: false, reason: "not_held" });
  });

  it("releases by schedule 72 hours after the end, not a minute before, once for two jobs at once", async () => {
    const early = await paidConsultation();
    const due = await paidConsultation();
    await endedAgo(early.consultationId, ESCROW_RELEASE_AFTER_MS - 60_000);
    await endedAgo(due.consultationId, ESCROW_RELEASE_AFTER_MS);
    const now = new Date();
    await Promise.all([releaseDueEscrows(db, now), releaseDueEscrows(db, now)]);

    expect(await escrowNow(early.consultationId)).toMatchObject({ status: "held", releasedAt: null });
    expect(await balanceOf(db, "doctor_payable", early.doctorId)).toBe(0);
    expect(await escrowNow(due.consultationId)).toMatchObject({ status: "released", confirmedAt: null });
    expect(await entriesOfKey(`consultation:${due.consultationId}:released`)).toHaveLength(1);
    expect(await balanceOf(db, "doctor_payable", due.doctorId)).toBe(-doctorSantim);
    expect(await balanceOf(db, "escrow", due.consultationId)).toBe(0);
  });

  it("leaves a consultation still in progress held, however long ago it was paid", async () => {
    const { consultationId } = await paidConsultation();
    await releaseDueEscrows(db, new Date(Date.now() + 30 * ESCROW_RELEASE_AFTER_MS));
    expect(await escrowNow(consultationId)).toMatchObject({ status: "held" });
  });
});

describe("the patient's page", () => {
  it("says where the money is, and the patient's form releases it, told in their language, without JavaScript", async () => {
    const { consultationId, patientId, doctorId } = await paidConsultation();
    const patient = new Visitor(await sessionCookieFor(patientId));
    const during = await patient.follow(await patient.get(`/patient/consultation/${consultationId}`));
    expect(during.html).toContain("is held in escrow by Qoda");
    expect(during.html).not.toContain('value="confirm-complete"');

    await endedAgo(consultationId, 60_000);
    const feedbackPage = await patient.follow(await patient.get(`/patient/consultation/${consultationId}`));
    expect(feedbackPage.url).toBe(`${ORIGIN}/patient/feedback/${consultationId}`);
    expect(feedbackPage.html).toContain("unless you open a dispute before then");
    // A patient who watched it end stays on its page, which reads where it stands now: its release and dispute forms.
    const watched = await patient.get(`/patient/consultation/${consultationId}?ended`);
    expect(watched.status).toBe(200);
    const watchedHtml = await watched.text();
    expect(watchedHtml).toContain('value="confirm-complete"');
    expect(watchedHtml).toContain("Read the summary and give feedback");
    expect(watchedHtml).toContain("Contact dermatitis");

    // Someone else's consultation is not found, and changes nothing.
    const stranger = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await stranger.post(`/patient/consultation/${consultationId}`, { intent: "confirm-complete" })).status).toBe(404);
    expect(await escrowNow(consultationId)).toMatchObject({ status: "held" });

    const confirmed = await patient.post(`/patient/consultation/${consultationId}`, { intent: "confirm-complete" });
    expect(confirmed.headers.get("Location")).toBe(`/patient/feedback/${consultationId}`);
    const after = await patient.follow(confirmed);
    expect(after.html).toContain("Your payment has been released to the doctor.");
    expect(after.html).toContain("was released to Dr. Test on");
    expect(await balanceOf(db, "doctor_payable", doctorId)).toBe(-splitRelease(CONSULTATION_FEE_SANTIM).doctorSantim);

    // A second click is told it is done, in Amharic for an Amharic reader.
    await patient.get("/?lng=am");
    const told = await patient.follow(await patient.post(`/patient/consultation/${consultationId}`, { intent: "confirm-complete" }));
    expect(told.html).toContain("ይህ ክፍያ ከእንግዲህ በአደራ ሂሳብ ስላልተያዘ ምንም አልተቀየረም።");
    expect(await entriesOfKey(`consultation:${consultationId}:released`)).toHaveLength(1);
  });

  it("answers the feedback page's dispute form there: its errors on that page, then the dispute sent", async () => {
    const { consultationId, patientId } = await paidConsultation();
    await endedAgo(consultationId, 60_000);
    const patient = new Visitor(await sessionCookieFor(patientId));
    const page = `/patient/feedback/${consultationId}`;
    // Posted where the patient is (an unrated consultation's own page sends them back here).
    const refused = await patient.post(page, { intent: "open-dispute" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Choose what went wrong.");
    expect(html).toContain("Tell us what happened.");
    expect(await escrowNow(consultationId)).toMatchObject({ status: "held" });

    const sent = await patient.post(page, { intent: "open-dispute", reason: "not_helpful", words: "The cream did nothing." });
    expect(sent.headers.get("Location")).toBe(page);
    expect((await patient.follow(sent)).html).toContain("Your dispute was sent.");
    expect(await escrowNow(consultationId)).toMatchObject({ status: "disputed" });
  });
});
