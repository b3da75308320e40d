// Reconciliation with the payment provider in the real D1 (issue 27): a run over a clean state finds
// nothing of this test's own; money taken back in the sandbox (its webhook) is frozen, booked, told and
// put before an admin in red; a dashboard refund after release comes out of the doctor's next payout; a
// transfer fee the verify did not give is booked by a run; a transfer only the provider knows is found;
// an unreachable provider is said so; an admin resolves a difference with a note from a plain form;
// the pages speak Amharic, what each side says of a difference too; the job runs once a day. And the
// finance page's decisions on a payout or a refund the provider has not settled: ask again, fail only on
// the provider's word, or record it made outside the provider with a note.
import { env, SELF } from "cloudflare:test";
import { and, desc, eq, inArray } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  consultations,
  doctorPayoutAccounts,
  escrows,
  notifications,
  payouts,
  reconciliationDifferences,
  reconciliationRuns,
  refunds,
} from "~/db/schema";
import { SANDBOX_TRANSFER_FEE_SANTIM } from "~/domain/payment-sandbox";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { earningsTotals } from "~/server/money/earnings.server";
import { confirmConsultationComplete } from "~/server/money/escrow.server";
import { balanceOf } from "~/server/money/ledger.server";
import { movePayoutsOn, settlePayout } from "~/server/money/payouts.server";
import { reconcileIfDue } from "~/server/money/reconciliation.server";
import { moveRefundsOn } from "~/server/money/refunds.server";
import { readSandboxRecord, TRANSFERS_PREFIX, writeSandboxRecord } from "~/server/payments/sandbox-store.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";
import { sendHeldSandboxWebhooks } from "~/server/payments/sandbox-webhook.server";

import { Visitor } from "./browser-like";
import { createUser, db, ORIGIN, sessionCookieFor } from "./fixtures";
import { config, endedAgo, paidAtProvider, paidConsultation } from "./money-fixtures";

const PAGE = "/admin/finance/reconciliation";

// The sandbox posts its webhooks to our own route: here they reach the Worker under test, as they would
// reach `wrangler dev`.
beforeEach(() => {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const request = new Request(input, init);
    return request.url === `${ORIGIN}/payments/webhook` ? SELF.fetch(request) : realFetch(input, init);
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await setSandboxSwitch(env, "refunds", "succeed");
  await setSandboxSwitch(env, "payouts", "succeed");
  await setSandboxSwitch(env, "webhooks", "on_time");
});

const text = (html: string) => html.replace(/<!-- -->/g, "");

async function signedInAs(role: "admin" | "patient" | "doctor", userId?: string) {
  const id = userId ?? (await createUser(role));
  return { userId: id, visitor: new Visitor(await sessionCookieFor(id)) };
}

/** A consultation paid, ended and confirmed complete by its patient: the doctor's 120 ETB released. */
async function releasedConsultation(doctorId?: string) {
  const paid = await paidAtProvider();
  if (doctorId) await db.update(consultations).set({ doctorId }).where(eq(consultations.id, paid.consultationId));
  const owner = doctorId ?? paid.doctorId;
  expect((await confirmPayment(env, config(), ORIGIN, paid.txRef, new Date())).kind).toBe("confirmed");
  await endedAgo(paid.consultationId, 60_000);
  expect(await confirmConsultationComplete(db, paid.patientId, paid.consultationId, new Date())).toEqual({ ok: true });
  return { ...paid, doctorId: owner };
}

async function givePayoutAccount(doctorId: string) {
  const now = new Date();
  await db.insert(doctorPayoutAccounts).values({
    doctorId,
    bankCode: "855",
    bankName: "telebirr",
    accountName: "Test Doctor",
    accountNumber: "0911223344",
    createdAt: now,
    updatedAt: now,
  });
}

/** The difference of `kind` found for `reference`, if any. */
async function differenceOf(reference: string, kind?: string) {
  const rows = await db.select().from(reconciliationDifferences).where(eq(reconciliationDifferences.reference, reference));
  return rows.filter((row) => !kind || row.kind === kind);
}

/** A transfer of 75 ETB the sandbox made and lists, that none of our payouts is; its reference. */
async function transferOnlyAtProvider() {
  const reference = `stranger-${crypto.randomUUID().slice(0, 8)}`;
  const now = Date.now();
  await writeSandboxRecord(env, `${TRANSFERS_PREFIX}${reference}`, {
    reference,
    amountSantim: 7_500,
    bankCode: "855",
    bankName: "telebirr",
    accountName: "Someone Else",
    accountNumber: "0911000000",
    status: "success",
    feeSantim: SANDBOX_TRANSFER_FEE_SANTIM,
    failureReason: null,
    chapaReference: "SBXSTRANGER1",
    createdAt: now,
    updatedAt: now,
  });
  return reference;
}

/** The page's difference cards by reference, each with its two detail lines (and whether each is marked English). */
function differenceCards(html: string) {
  return new Map(
    html
      .split('data-testid="difference"')
      .slice(1)
      .map((card) => [
        /data-reference="([^"]+)"/.exec(card)![1]!,
        [...card.split("</li>")[0]!.matchAll(/<dd class="text-xs text-base-content\/70"( lang="en")?>([^<]*)<\/dd>/g)].map((line) => ({
          english: line[1] !== undefined,
          words: line[2] ?? "",
        })),
      ]),
  );
}

/** Runs a reconciliation from the page's own form, as an admin; the run's row. */
async function reconcileAsAdmin(visitor: Visitor) {
  const answer = await visitor.post(PAGE, { intent: "reconcile" });
  expect(answer.status).toBe(302);
  const [run] = await db.select().from(reconciliationRuns).orderBy(desc(reconciliationRuns.createdAt)).limit(1);
  return { answer, run: run! };
}

async function notificationsOf(userId: string, kind: string) {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)));
}

describe("reconciliation with the payment service", () => {
  // First in the file: nothing before it, so the run must agree with the sandbox entirely.
  it("a clean state reconciles with no difference, and the page says our books agree, with the time", async () => {
    const held = await paidConsultation();
    const released = await releasedConsultation();
    await givePayoutAccount(released.doctorId);
    const { visitor } = await signedInAs("admin");
    expect((await visitor.post("/admin/finance", { intent: "run-payouts" })).status).toBe(302);
    const [paid] = await db.select().from(payouts).where(eq(payouts.doctorId, released.doctorId));
    expect(paid).toMatchObject({ status: "succeeded", feeSantim: SANDBOX_TRANSFER_FEE_SANTIM });

    const { run } = await reconcileAsAdmin(visitor);
    expect(run).toMatchObject({ error: null, differencesFound: 0 });
    expect(run.transactionsCompared).toBeGreaterThanOrEqual(2);
    expect(run.transfersCompared).toBeGreaterThanOrEqual(1);
    expect(run.providerBalanceSantim).toBe(run.booksBalanceSantim);
    for (const reference of [held.txRef, released.txRef, paid!.reference]) expect(await differenceOf(reference)).toEqual([]);

    const page = text(await (await visitor.get(PAGE)).text());
    expect(page).toMatch(
      /data-testid="reconciliation-state"[^>]*>.*Our books agree with Chapa&#x27;s\. Last compared:.*<time dateTime="[^"]+">[^<]+<\/time>/s,
    );
    expect(page).toContain("No difference is open.");
    const finance = text(await (await visitor.get("/admin/finance")).text());
    expect(finance).toMatch(/class="alert alert-success" data-testid="reconciliation-check"/);
  });

  it("a chargeback made in the sandbox freezes the held escrow, tells patient and doctor, and is red on both pages", async () => {
    const { consultationId, txRef, patientId, doctorId } = await paidConsultation();
    expect(await balanceOf(db, "escrow", consultationId)).toBe(-15_000);
    const { visitor } = await signedInAs("admin");
    const sandbox = await visitor.post("/dev/payments", { intent: "take-back", txRef, how: "reversed" });
    expect(sandbox.status).toBe(302);

    const escrow = await db.query.escrows.findFirst({ where: eq(escrows.consultationId, consultationId) });
    expect(escrow?.status).toBe("charged_back");
    // Booked: the escrow's money left with the provider's.
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await notificationsOf(patientId, "payment_charged_back")).toHaveLength(1);
    expect(await notificationsOf(doctorId, "payment_charged_back")).toHaveLength(1);
    const [difference] = await differenceOf(txRef, "charged_back");
    expect(difference).toMatchObject({ status: "open", consultationId, oursSantim: 15_000, theirsSantim: 0 });

    // The webhook again (Chapa sends twice): nothing more.
    expect(await visitor.post("/dev/payments", { intent: "take-back", txRef, how: "reversed" })).toHaveProperty("status", 302);
    expect(await differenceOf(txRef)).toHaveLength(1);
    expect(await notificationsOf(patientId, "payment_charged_back")).toHaveLength(1);

    const page = text(await (await visitor.get(PAGE)).text());
    expect(page).toMatch(
      new RegExp(`class="[^"]*border-error[^"]*" data-testid="difference" data-kind="charged_back" data-reference="${txRef}"`),
    );
    expect(page).toMatch(/role="alert" class="alert alert-error" data-testid="reconciliation-state"/);
    expect(page).toContain("Taken back by the bank or Chapa");
    const finance = text(await (await visitor.get("/admin/finance")).text());
    expect(finance).toMatch(/role="alert" class="alert alert-error" data-testid="reconciliation-check"/);
    expect(finance).toMatch(/differences? with Chapa (is|are) open\./);
  });

  it("a refund made in Chapa's dashboard after release comes back from the doctor: their available balance and next payout are smaller", async () => {
    const first = await releasedConsultation();
    const doctorId = first.doctorId;
    const second = await releasedConsultation(doctorId);
    await givePayoutAccount(doctorId);
    expect((await earningsTotals(db, doctorId)).availableSantim).toBe(24_000);

    const { visitor } = await signedInAs("admin");
    expect((await visitor.post("/dev/payments", { intent: "take-back", txRef: second.txRef, how: "refunded" })).status).toBe(302);
    expect((await db.query.escrows.findFirst({ where: eq(escrows.consultationId, second.consultationId) }))?.status).toBe("charged_back");
    expect((await earningsTotals(db, doctorId)).availableSantim).toBe(12_000);
    expect(await notificationsOf(doctorId, "payment_charged_back")).toHaveLength(1);

    expect((await visitor.post("/admin/finance", { intent: "run-payouts" })).status).toBe(302);
    const sent = await db.select().from(payouts).where(eq(payouts.doctorId, doctorId));
    expect(sent.map((payout) => payout.amountSantim)).toEqual([12_000]);
  });

  it("books a transfer fee the provider's verify did not give, once, when a run reads it in its list", async () => {
    const { doctorId } = await releasedConsultation();
    await givePayoutAccount(doctorId);
    const { visitor } = await signedInAs("admin");
    const { run: before } = await reconcileAsAdmin(visitor);
    await setSandboxSwitch(env, "payouts", "drop_webhook");
    expect((await visitor.post("/admin/finance", { intent: "run-payouts" })).status).toBe(302);
    const [payout] = await db.select().from(payouts).where(eq(payouts.doctorId, doctorId));
    expect(payout).toMatchObject({ status: "pending", accepted: true });

    // The verify says success with no charge (as Chapa's may); its list later gives the 5 ETB.
    const key = `${TRANSFERS_PREFIX}${payout!.reference}`;
    const transfer = (await readSandboxRecord<Record<string, unknown>>(env, key))!;
    await writeSandboxRecord(env, key, { ...transfer, feeSantim: 0 });
    expect(await settlePayout(env, config(), payout!.reference, new Date())).toBe("settled");
    expect((await db.query.payouts.findFirst({ where: eq(payouts.id, payout!.id) }))?.feeSantim).toBeNull();
    await writeSandboxRecord(env, key, transfer);

    const feesBefore = await balanceOf(db, "provider_fees");
    const { run } = await reconcileAsAdmin(visitor);
    expect(run.error).toBeNull();
    expect((await db.query.payouts.findFirst({ where: eq(payouts.id, payout!.id) }))?.feeSantim).toBe(SANDBOX_TRANSFER_FEE_SANTIM);
    expect(await balanceOf(db, "provider_fees")).toBe(feesBefore + SANDBOX_TRANSFER_FEE_SANTIM);
    expect(await differenceOf(payout!.reference)).toEqual([]);
    // Booked before the balances were compared: they differ no more than they did before this test.
    expect(run.providerBalanceSantim! - run.booksBalanceSantim!).toBe(before.providerBalanceSantim! - before.booksBalanceSantim!);

    await reconcileAsAdmin(visitor);
    expect(await balanceOf(db, "provider_fees")).toBe(feesBefore + SANDBOX_TRANSFER_FEE_SANTIM);
  });

  it("finds a transfer the provider lists and we do not know: missing in our books", async () => {
    const reference = await transferOnlyAtProvider();
    const { visitor } = await signedInAs("admin");
    await reconcileAsAdmin(visitor);
    const [difference] = await differenceOf(reference);
    expect(difference).toMatchObject({
      kind: "missing_in_books",
      subject: "payout",
      status: "open",
      theirsSantim: 7_500,
      oursSantim: null,
    });
    // Found again by the next run, it stays one difference.
    await reconcileAsAdmin(visitor);
    expect(await differenceOf(reference)).toHaveLength(1);
    const page = text(await (await visitor.get(PAGE)).text());
    expect(page).toContain(`data-kind="missing_in_books" data-reference="${reference}"`);
    expect(page).toContain("Not in our books");
  });

  it("records a run that could not ask the provider, and the pages say so", async () => {
    const { visitor } = await signedInAs("admin");
    await setSandboxSwitch(env, "payouts", "unreachable");
    const { answer, run } = await reconcileAsAdmin(visitor);
    expect(run.error).toContain("could not be asked");
    expect(run.finishedAt).not.toBeNull();
    expect(run.differencesFound).toBe(0);
    const followed = text((await visitor.follow(answer)).html);
    expect(followed).toContain("Chapa could not be asked. Nothing was compared; try again later.");
    expect(followed).toMatch(
      /<time[^>]*>[^<]*<\/time><span>by an admin<\/span><span class="text-error">Chapa could not be asked\.<\/span>/,
    );
    // Red on the finance page (here for open differences too).
    expect(text(await (await visitor.get("/admin/finance")).text())).toMatch(
      /class="alert alert-error" data-testid="reconciliation-check"/,
    );
  });

  it("an admin resolves a difference with a note from a plain form, once; others may not", async () => {
    const { txRef } = await paidConsultation();
    const { userId, visitor } = await signedInAs("admin");
    await visitor.post("/dev/payments", { intent: "take-back", txRef, how: "reversed" });
    const [difference] = await differenceOf(txRef, "charged_back");
    expect(difference?.status).toBe("open");

    // An empty note: refused with the message in the admin's language, nothing changed.
    const empty = await visitor.post(PAGE, { intent: "resolve-difference", differenceId: difference!.id, note: "   " });
    expect(empty.status).toBe(400);
    expect(text(await empty.text())).toContain("Say what you found and did.");
    const amharic = await visitor.post(`${PAGE}?lng=am`, { intent: "resolve-difference", differenceId: difference!.id, note: "" });
    expect(amharic.status).toBe(400);
    expect(text(await amharic.text())).toContain("ያገኙትንና ያደረጉትን ይጻፉ።");
    expect((await differenceOf(txRef))[0]?.status).toBe("open");
    await visitor.get(`${PAGE}?lng=en`);

    // A patient, a doctor: sent away, nothing changed.
    for (const role of ["patient", "doctor"] as const) {
      const { visitor: other } = await signedInAs(role);
      expect((await other.get(PAGE)).headers.get("Location")).toBe("/access-denied");
      const tried = await other.post(PAGE, { intent: "resolve-difference", differenceId: difference!.id, note: "Mine now" });
      expect(tried.headers.get("Location")).toBe("/access-denied");
      expect((await other.post(PAGE, { intent: "reconcile" })).headers.get("Location")).toBe("/access-denied");
    }
    expect((await differenceOf(txRef))[0]?.status).toBe("open");

    // Clicked twice: resolved once, the second told it already was.
    const note = "The patient's bank reversed it; Chapa's dispute desk confirmed by email. Nothing to recover.";
    const first = await visitor.post(PAGE, { intent: "resolve-difference", differenceId: difference!.id, note });
    expect(first.status).toBe(302);
    expect(text((await visitor.follow(first)).html)).toContain("The difference is marked resolved.");
    const second = await visitor.post(PAGE, { intent: "resolve-difference", differenceId: difference!.id, note: "again" });
    expect(second.status).toBe(302);
    expect(text((await visitor.follow(second)).html)).toContain("That difference was already resolved.");
    const [resolved] = await differenceOf(txRef);
    expect(resolved).toMatchObject({ status: "resolved", resolutionNote: note, resolvedBy: userId });
    const page = text(await (await visitor.get(PAGE)).text());
    expect(page).toContain(`Resolved: <span class="whitespace-pre-wrap">${note.replace(/'/g, "&#x27;")}</span>`);
  });

  it("speaks Amharic: the page and the finance page's banner", async () => {
    const { visitor } = await signedInAs("admin");
    const page = text(await (await visitor.get(`${PAGE}?lng=am`)).text());
    expect(page).toContain('lang="am"');
    expect(page).toContain("ከቻፓ ጋር ማስታረቅ");
    expect(page).toContain("አሁን አስታርቅ");
    expect(page).toMatch(/ከቻፓ ጋር \d+ (ያልተፈታ ልዩነት አለ|ያልተፈቱ ልዩነቶች አሉ)።/);
    const finance = text(await (await visitor.get("/admin/finance?lng=am")).text());
    expect(finance).toMatch(/data-testid="reconciliation-check"[^>]*><span>ከቻፓ ጋር \d+ /);
    expect(finance).toContain("ማስታረቁን ይመልከቱ");
  });

  it("words what each side says in the reader's language: no English detail on the Amharic page, but a row from before keeps its English line", async () => {
    const { txRef } = await paidConsultation();
    const { visitor } = await signedInAs("admin");
    expect((await visitor.post("/dev/payments", { intent: "take-back", txRef, how: "reversed" })).status).toBe(302);
    const stranger = await transferOnlyAtProvider();
    await reconcileAsAdmin(visitor);
    // A difference recorded before details were kept as data: its lines are English sentences.
    const before = `before-${crypto.randomUUID().slice(0, 8)}`;
    const now = new Date();
    await db.insert(reconciliationDifferences).values({
      id: crypto.randomUUID(),
      kind: "missing_at_provider",
      subject: "payment",
      reference: before,
      ours: "Our payment reads paid: 150 ETB",
      theirs: "The payment service lists no such transaction",
      oursSantim: 15_000,
      theirsSantim: null,
      createdAt: now,
      updatedAt: now,
    });

    const linesIn = (english: boolean, ...lines: string[]) => lines.map((words) => ({ english, words }));
    const amharic = differenceCards(text(await (await visitor.get(`${PAGE}?lng=am`)).text()));
    expect(amharic.get(txRef)).toEqual(linesIn(false, "ተከፍሏል፤ የአደራ ሂሳቡ፦ ተይዟል", "የክፍያ አገልግሎቱ የሚለው፦ «reversed»"));
    expect(amharic.get(stranger)).toEqual(linesIn(false, "ይህ ማጣቀሻ ቁጥር ያለው ዝውውር በመዝገባችን የለም።", "የክፍያ አገልግሎቱ የሚለው፦ «success»"));
    // Every difference but the one from before (the balance's too): Amharic, the provider's own word quoted aside.
    expect(amharic.size).toBeGreaterThanOrEqual(3);
    for (const [reference, lines] of amharic)
      if (reference !== before)
        for (const line of lines) {
          expect(line.english, reference).toBe(false);
          expect(line.words.replace(/«[^»]*»/g, ""), reference).not.toMatch(/[A-Za-z]/);
        }
    expect(amharic.get(before)).toEqual(linesIn(true, "Our payment reads paid: 150 ETB", "The payment service lists no such transaction"));

    const english = differenceCards(text(await (await visitor.get(`${PAGE}?lng=en`)).text()));
    expect(english.get(txRef)).toEqual(linesIn(false, "Paid; escrow: held", "Chapa says “reversed”"));
    expect(english.get(stranger)).toEqual(linesIn(false, "No payout of ours has this reference.", "Chapa says “success”"));
  });

  it("the daily job reconciles once a day", async () => {
    const later = new Date(Date.now() + 2 * 24 * 60 * 60_000);
    const report = await reconcileIfDue(env, config(), later);
    expect(report).not.toBeNull();
    const [run] = await db.select().from(reconciliationRuns).where(eq(reconciliationRuns.id, report!.runId));
    expect(run?.requestedBy).toBeNull();
    expect(await reconcileIfDue(env, config(), new Date(later.getTime() + 60 * 60_000))).toBeNull();
    expect(await reconcileIfDue(env, config(), new Date(later.getTime() + 25 * 60 * 60_000))).not.toBeNull();
  });
});

/** A payout for a new doctor, taken by the sandbox and kept `queued`, asked about until it waits for an admin. */
async function payoutBeforeAnAdmin(admin: Visitor) {
  const { doctorId } = await releasedConsultation();
  await givePayoutAccount(doctorId);
  await setSandboxSwitch(env, "payouts", "queued");
  expect((await admin.post("/admin/finance", { intent: "run-payouts" })).status).toBe(302);
  const [sent] = await db.select().from(payouts).where(eq(payouts.doctorId, doctorId));
  let at = Date.now();
  for (let step = 0; step < 20; step++) {
    const now = await db.query.payouts.findFirst({ where: eq(payouts.id, sent!.id) });
    if (now?.reviewReason) break;
    at += 31 * 60_000;
    await movePayoutsOn(env, config(), new Date(at));
  }
  const stuck = (await db.query.payouts.findFirst({ where: eq(payouts.id, sent!.id) }))!;
  expect(stuck).toMatchObject({ status: "pending", accepted: true });
  expect(stuck.reviewReason).not.toBeNull();
  return { payout: stuck, doctorId };
}

const decide = (visitor: Visitor, subject: "payout" | "refund", id: string, decision: string, note?: string) =>
  visitor.post("/admin/finance", { intent: "decide-money", subject, id, decision, ...(note === undefined ? {} : { note }) });

describe("the finance page's decisions on money the provider has not settled", () => {
  it("a payout before an admin: failing it is refused while Chapa says queued or success; asked again, it settles", async () => {
    const { visitor } = await signedInAs("admin");
    const { payout, doctorId } = await payoutBeforeAnAdmin(visitor);
    const page = text(await (await visitor.get("/admin/finance")).text());
    expect(page).toContain(payout.reference);
    expect(page).toContain("Ask Chapa again");
    expect(page).toContain("Fail it (only if Chapa confirms)");

    const refused = await decide(visitor, "payout", payout.id, "fail");
    expect(refused.status).toBe(302);
    expect(text((await visitor.follow(refused)).html)).toContain(
      "Chapa does not confirm that nothing went out (it says “queued”). Nothing was changed.",
    );
    expect(await db.query.payouts.findFirst({ where: eq(payouts.id, payout.id) })).toMatchObject({ status: "pending" });

    // Sent now (its webhook held back, so only the admin's asking can settle it): failing is refused still.
    await setSandboxSwitch(env, "payouts", "succeed");
    await setSandboxSwitch(env, "webhooks", "late");
    const stillRefused = await decide(visitor, "payout", payout.id, "fail");
    expect(text((await visitor.follow(stillRefused)).html)).toContain("(it says “success”)");
    expect(await db.query.payouts.findFirst({ where: eq(payouts.id, payout.id) })).toMatchObject({ status: "pending" });

    const asked = await decide(visitor, "payout", payout.id, "ask_again");
    expect(text((await visitor.follow(asked)).html)).toContain("Chapa was asked again.");
    expect(await db.query.payouts.findFirst({ where: eq(payouts.id, payout.id) })).toMatchObject({
      status: "succeeded",
      channel: "provider",
      feeSantim: SANDBOX_TRANSFER_FEE_SANTIM,
      reviewReason: null,
    });
    expect(await notificationsOf(doctorId, "payout_paid")).toHaveLength(1);
    // The held webhook, delivered late, changes nothing.
    expect(await sendHeldSandboxWebhooks(config(), env)).toBeGreaterThan(0);
    expect(await notificationsOf(doctorId, "payout_paid")).toHaveLength(1);
  });

  it("a payout recorded as paid outside Chapa needs a note; then it is settled outside, booked and the doctor told", async () => {
    const { visitor } = await signedInAs("admin");
    const { payout, doctorId } = await payoutBeforeAnAdmin(visitor);
    const outsideBefore = await balanceOf(db, "paid_outside");

    const noNote = await decide(visitor, "payout", payout.id, "settled_outside", "  ");
    expect(noNote.status).toBe(400);
    expect(text(await noNote.text())).toContain("Say how it was made outside Chapa.");
    const noNoteAmharic = await visitor.post("/admin/finance?lng=am", {
      intent: "decide-money",
      subject: "payout",
      id: payout.id,
      decision: "settled_outside",
    });
    expect(noNoteAmharic.status).toBe(400);
    expect(text(await noNoteAmharic.text())).toContain("ከቻፓ ውጭ እንዴት እንደተፈጸመ ይጻፉ።");
    expect(await db.query.payouts.findFirst({ where: eq(payouts.id, payout.id) })).toMatchObject({ status: "pending" });
    await visitor.get("/admin/finance?lng=en");

    const note = "Paid by bank transfer from the platform's CBE account, slip 4471.";
    const answer = await decide(visitor, "payout", payout.id, "settled_outside", note);
    expect(answer.status).toBe(302);
    expect(text((await visitor.follow(answer)).html)).toContain("Recorded as made outside Chapa");
    expect(await db.query.payouts.findFirst({ where: eq(payouts.id, payout.id) })).toMatchObject({
      status: "succeeded",
      channel: "outside",
      note,
      reviewReason: null,
    });
    expect(await balanceOf(db, "paid_outside")).toBe(outsideBefore - payout.amountSantim);
    expect(await balanceOf(db, "payouts_in_transit", doctorId)).toBe(0);
    expect(await notificationsOf(doctorId, "payout_paid")).toHaveLength(1);
    // A second record is refused: it is no longer pending.
    const again = await decide(visitor, "payout", payout.id, "settled_outside", note);
    expect(text((await visitor.follow(again)).html)).toContain("That is no longer waiting");
  });

  it("a refund Chapa refused stays on the finance page, even a month on, until it is recorded as refunded outside Chapa", async () => {
    const { consultationId, txRef, patientId } = await paidAtProvider();
    // Paid after the window closed: refunded at once, which the sandbox refuses.
    await db
      .update(consultations)
      .set({ paymentDeadlineAt: new Date(Date.now() - 1_000) })
      .where(eq(consultations.id, consultationId));
    await setSandboxSwitch(env, "refunds", "fail");
    expect((await confirmPayment(env, config(), ORIGIN, txRef, new Date())).kind).toBe("late");
    for (let hour = 3; hour <= 30; hour += 3) await moveRefundsOn(env, config(), new Date(Date.now() + hour * 60 * 60_000));
    const [failed] = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    expect(failed).toMatchObject({ status: "failed" });
    // A month on, still there for an admin.
    const monthAgo = new Date(Date.now() - 31 * 24 * 60 * 60_000);
    await db.update(refunds).set({ updatedAt: monthAgo, createdAt: monthAgo }).where(eq(refunds.id, failed!.id));
    const { visitor } = await signedInAs("admin");
    const page = text(await (await visitor.get("/admin/finance")).text());
    expect(page).toContain(failed!.reference);
    expect(page).toContain("Record as refunded outside Chapa");

    const noNote = await decide(visitor, "refund", failed!.id, "settled_outside", "");
    expect(noNote.status).toBe(400);
    expect(text(await noNote.text())).toContain("Say how it was made outside Chapa.");
    expect(await db.select().from(refunds).where(eq(refunds.consultationId, consultationId))).toHaveLength(1);

    const escrowBefore = await balanceOf(db, "escrow", consultationId);
    expect(escrowBefore).toBe(-15_000);
    const outsideBefore = await balanceOf(db, "paid_outside");
    const note = "Refunded in cash at the clinic, receipt 118.";
    const answers = await Promise.all([1, 2].map(() => decide(visitor, "refund", failed!.id, "settled_outside", note)));
    expect(answers.map((answer) => answer.status)).toEqual([302, 302]);
    const all = await db.select().from(refunds).where(eq(refunds.consultationId, consultationId));
    const outside = all.filter((refund) => refund.channel === "outside");
    expect(outside).toHaveLength(1);
    expect(outside[0]).toMatchObject({ status: "succeeded", note, amountSantim: 15_000 });
    expect(await balanceOf(db, "escrow", consultationId)).toBe(0);
    expect(await balanceOf(db, "paid_outside")).toBe(outsideBefore - 15_000);
    expect(await notificationsOf(patientId, "money_refunded")).toHaveLength(1);
    expect(text(await (await visitor.get("/admin/finance")).text())).not.toContain(failed!.reference);
    const refundIds = all.map((refund) => refund.id);
    expect(refundIds).toHaveLength(2);
    expect(await db.select().from(refunds).where(inArray(refunds.id, refundIds))).toHaveLength(2);
  });
});
