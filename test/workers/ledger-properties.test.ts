// The money ledger under random events (docs/decisions/0028), after TigerBeetle's randomized tests:
// fast-check plays sequences of payments (with replays and late ones), confirmations, scheduled
// releases (two at once), disputes and their decisions, refunds and payouts settled by webhook or by the
// job (two payout runs at once), with the provider misbehaving as Chapa does (refusals, 503s, calls taken
// and their answers lost, transfers queued or refused outside its hours, webhooks twice, late or never),
// chargebacks and refunds made in Chapa's dashboard at any stage, reconciliation runs, and Workers that
// die between a provider call and their own write; over a few consultations and doctors, through the
// real server code, the webhook route and the real D1. After each sequence the books must balance and
// agree with the rows they record, and nothing may be pending without a next step; then, the provider
// answering again and the jobs run a day apart (admins asking again about what is before them), nothing
// is pending, Chapa's money (what the sandbox holds for this world) is our books' money, nothing was sent
// twice, and every chargeback is on the reconciliation page.
import { env, SELF } from "cloudflare:test";
import { eq, inArray, or, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";

import {
  consultations,
  doctorPayoutAccounts,
  doctors,
  escrows,
  ledgerEntries,
  ledgerLines,
  payments,
  payouts,
  reconciliationDifferences,
  refunds,
} from "~/db/schema";
import { LEDGER_ACCOUNTS, type LedgerAccount } from "~/domain/ledger";
import { CONSULTATION_FEE_SANTIM, splitRelease } from "~/domain/money";
import { SANDBOX_SWITCH_SETTINGS, type SandboxSwitch, type SandboxSwitchSetting } from "~/domain/payment-sandbox";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { inSlices } from "~/server/db/chunks.server";
import { createDatabase } from "~/server/db/client.server";
import { loadConfig } from "~/server/env.server";
import { disputeOf, openDispute, resolveDispute } from "~/server/money/disputes.server";
import { confirmConsultationComplete, releaseDueEscrows } from "~/server/money/escrow.server";
import { decidePayout, movePayoutsOn, runPayouts } from "~/server/money/payouts.server";
import { reconcileWithProvider } from "~/server/money/reconciliation.server";
import { decideRefund, moveRefundsOn } from "~/server/money/refunds.server";
import { sandboxProvider, takeBackSandboxTransaction } from "~/server/payments/sandbox.server";
import {
  readSandboxRecord,
  REFUNDS_PREFIX,
  sandboxChargeOf,
  sandboxRecords,
  sandboxTransaction,
  TRANSFERS_PREFIX,
} from "~/server/payments/sandbox-store.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";
import { sendHeldSandboxWebhooks } from "~/server/payments/sandbox-webhook.server";
import { signWebhookBody } from "~/server/payments/webhook-signature.server";

import { createConsultation, createUser, db, ORIGIN } from "./fixtures";
import { crashingEnv, providerMoneyOf, surviving } from "./ledger-property-provider";
import { attemptPaidAtProvider, ESCROW_RELEASE_AFTER_MS } from "./money-fixtures";

const config = () => loadConfig(env);
/** The seed of the sequences played (see the property's options). */
const PROPERTY_SEED = 20_261_128;
const sandbox = () => sandboxProvider(config(), env, ORIGIN);
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** The provider answering well. */
async function providerAnswersWell() {
  await setSandboxSwitch(env, "refunds", "succeed");
  await setSandboxSwitch(env, "payouts", "succeed");
  await setSandboxSwitch(env, "webhooks", "on_time");
}

afterEach(async () => {
  vi.restoreAllMocks();
  await providerAnswersWell();
});

// ---------------------------------------------------------------------------------------------------
// The events, as fast-check draws them. A consultation is named by an index taken modulo their number.

/** Where each consultation starts, reached through the same code: its payment confirmed, its end, its dispute. */
const SETUP_STAGES = ["awaiting_webhook", "in_progress", "ended", "ended_due", "disputed"] as const;
/** Mostly ended ones, where the money moves. */
const setupStage = fc.oneof(
  ...SETUP_STAGES.map((stage) => ({
    weight: stage === "awaiting_webhook" || stage === "in_progress" ? 1 : 2,
    arbitrary: fc.constant(stage),
  })),
);
const CLOCK_STEPS_MS = [2 * MINUTE_MS, 45 * MINUTE_MS, ESCROW_RELEASE_AFTER_MS + MINUTE_MS] as const;

const anyCase = fc.nat({ max: 3 });
const twice = fc.boolean();
/** A switch's setting: mostly answering well, else any of the ways Chapa misbehaves. */
const settingOf = <Which extends SandboxSwitch>(which: Which) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(SANDBOX_SWITCH_SETTINGS[which][0] as SandboxSwitchSetting<Which>) },
    { weight: 3, arbitrary: fc.constantFrom(...(SANDBOX_SWITCH_SETTINGS[which].slice(1) as Array<SandboxSwitchSetting<Which>>)) },
  );
/**
 * How the sandbox answers what an event asks of it (its switches, set just before): its refunds, its
 * transfers and its webhooks; and whether the Worker dies once the provider took a request (crashingEnv).
 */
const provider = fc.record({
  refunds: settingOf("refunds"),
  payouts: settingOf("payouts"),
  webhooks: settingOf("webhooks"),
  crash: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});
const answer = provider.map(({ refunds, webhooks }) => ({ refunds, webhooks }));
const oneEvent = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("charge_webhook" as const), at: anyCase }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("late_payment" as const), at: anyCase, provider: answer }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("end" as const), at: anyCase }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("patient_confirms" as const), at: anyCase }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("time_passes" as const), ms: fc.constantFrom(...CLOCK_STEPS_MS) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("release_job" as const), twice }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("open_dispute" as const), at: anyCase }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("resolve_dispute" as const),
      at: anyCase,
      resolution: fc.constantFrom("release", "refund_full", "refund_part"),
      refundPartSantim: fc.integer({ min: 1, max: CONSULTATION_FEE_SANTIM - 1 }),
      twice,
      provider,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("refund_job" as const), provider }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("payout_run" as const), twice, provider }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("payout_job" as const), provider }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("webhook_replay" as const), pick: fc.nat() }) },
  // A refund made in Chapa's dashboard, or a chargeback by the patient's bank, of one of a consultation's paid payments.
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("taken_back" as const),
      at: anyCase,
      pick: fc.nat({ max: 1 }),
      how: fc.constantFrom("refunded" as const, "reversed" as const),
      webhooks: settingOf("webhooks"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("late_webhooks_arrive" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reconcile" as const) }) },
);
type OneEvent = typeof oneEvent extends fc.Arbitrary<infer Event> ? Event : never;
/** An event, or two at once (a webhook during a job, a confirmation during a release, two admins). */
const moneyEvent = fc.oneof(
  { weight: 4, arbitrary: oneEvent },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("together" as const), events: fc.tuple(oneEvent, oneEvent) }) },
);
type MoneyEvent = typeof moneyEvent extends fc.Arbitrary<infer Event> ? Event : never;

const scenario = fc.record({
  doctors: fc.integer({ min: 1, max: 2 }),
  cases: fc.array(fc.record({ doctor: fc.nat({ max: 1 }), stage: setupStage }), { minLength: 2, maxLength: 4 }),
  events: fc.array(moneyEvent, { minLength: 1, maxLength: 14 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer Drawn> ? Drawn : never;

// ---------------------------------------------------------------------------------------------------
// One run's world: its own people, consultations and clock, so runs in the shared D1 stay apart.

interface Case {
  consultationId: string;
  patientId: string;
  doctorId: string;
  txRef: string;
}

interface World {
  adminId: string;
  doctorIds: string[];
  cases: Case[];
  /** The jobs' and the people's clock (the webhook route keeps the real one). */
  clockMs: number;
  /** Every webhook that reached the route (ours and the sandbox's), to be replayed. */
  webhooks: Array<{ body: string; signature: string }>;
  /** The route's answers to them. */
  webhookStatuses: number[];
  /** The payments Chapa gave back without our asking (its dashboard, or a chargeback). */
  takenBack: Set<string>;
}

let world: World | null = null;

/** The sandbox's webhooks go to the Worker itself (as under wrangler dev), and are kept for replays. */
function routeOwnCallsToWorker() {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(ORIGIN)) throw new Error(`no test reaches the internet: ${request.url}`);
    return postToWebhook(await request.text(), request.headers.get("x-chapa-signature") ?? "");
  });
}

async function postToWebhook(body: string, signature: string) {
  world?.webhooks.push({ body, signature });
  const response = await SELF.fetch(`${ORIGIN}/payments/webhook`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", "x-chapa-signature": signature },
  });
  await response.text();
  world?.webhookStatuses.push(response.status);
  return response;
}

/** The provider's charge.success for `txRef`, signed as the sandbox signs it. */
async function chargeWebhook(txRef: string) {
  const body = JSON.stringify({ event: "charge.success", tx_ref: txRef, status: "success", amount: "150.00", currency: "ETB" });
  return postToWebhook(body, await signWebhookBody(sandbox().webhookSecret, body));
}

/** The doctor ended it at `completedAtMs` (the end move's own columns, as the fixtures write rows). */
async function endAt(consultationId: string, completedAtMs: number) {
  await db
    .update(consultations)
    .set({ status: "completed", completedAt: new Date(completedAtMs), diagnosis: "Contact dermatitis" })
    .where(eq(consultations.id, consultationId));
}

const openDisputeOf = (world: World, { patientId, consultationId }: Case) =>
  openDispute(
    { db, config: config() },
    patientId,
    consultationId,
    { reason: "not_helpful", words: "The cream did nothing." },
    new Date(world.clockMs),
  );

/**
 * The consultations an event can act on now (paid ones in progress for the doctor's end, ended ones
 * still held for a confirmation or a dispute, open disputes for a decision); all of them when none can,
 * so that refusals are played too.
 */
async function candidatesFor(world: World, kind: "end" | "held_after_end" | "open_dispute") {
  const states = await Promise.all(
    world.cases.map(async (one) => {
      const [row] = await db
        .select({ status: consultations.status, escrow: escrows.status })
        .from(consultations)
        .leftJoin(escrows, eq(escrows.consultationId, consultations.id))
        .where(eq(consultations.id, one.consultationId));
      const dispute = kind === "open_dispute" ? await disputeOf(db, one.consultationId) : null;
      const can =
        kind === "end"
          ? row?.status === "in_progress"
          : kind === "held_after_end"
            ? row?.status === "completed" && row.escrow === "held"
            : dispute?.status === "open";
      return can ? one : null;
    }),
  );
  const able = states.filter((one) => one !== null);
  return able.length > 0 ? able : world.cases;
}

async function buildWorld(drawn: Scenario): Promise<World> {
  const now = Date.now();
  const adminId = await createUser("admin");
  const doctorIds: string[] = [];
  for (let index = 0; index < drawn.doctors; index++) {
    const doctorId = await createUser("doctor");
    await db.insert(doctorPayoutAccounts).values({
      doctorId,
      bankCode: "946",
      bankName: "Commercial Bank of Ethiopia (CBE)",
      accountName: "Dr. Test Doctor",
      accountNumber: "1000123456789",
    });
    doctorIds.push(doctorId);
  }
  world = { adminId, doctorIds, cases: [], clockMs: now, webhooks: [], webhookStatuses: [], takenBack: new Set() };
  for (const { doctor, stage } of drawn.cases) {
    const patientId = await createUser("patient");
    const doctorId = doctorIds[doctor % doctorIds.length]!;
    const consultation = await createConsultation(patientId, "accepted_awaiting_payment", {
      doctorId,
      acceptedAt: new Date(now - MINUTE_MS),
      paymentDeadlineAt: new Date(now + 14 * MINUTE_MS),
    });
    const txRef = await attemptPaidAtProvider(consultation.id, patientId);
    world.cases.push({ consultationId: consultation.id, patientId, doctorId, txRef });
    if (stage === "awaiting_webhook") continue;
    expect((await confirmPayment(env, config(), ORIGIN, txRef, new Date())).kind).toBe("confirmed");
    if (stage === "in_progress") continue;
    // Ended a minute ago, or (due) just over 72 hours ago; disputed within the window.
    await endAt(consultation.id, stage === "ended_due" ? now - ESCROW_RELEASE_AFTER_MS - MINUTE_MS : now - MINUTE_MS);
    if (stage === "disputed") expect(await openDisputeOf(world, world.cases.at(-1)!)).toEqual({ ok: true });
  }
  return world;
}

// ---------------------------------------------------------------------------------------------------
// Playing an event through the real code. Whatever it refuses is part of the game: only a crash fails.

async function play(world: World, event: MoneyEvent): Promise<void> {
  if (event.kind === "together") {
    await Promise.all(event.events.map((one) => playOne(world, one)));
    return;
  }
  await playOne(world, event);
}

/** The sandbox's switches for what an event asks of it. */
async function providerSays(setting: {
  refunds?: SandboxSwitchSetting<"refunds">;
  payouts?: SandboxSwitchSetting<"payouts">;
  webhooks: SandboxSwitchSetting<"webhooks">;
}) {
  if (setting.refunds) await setSandboxSwitch(env, "refunds", setting.refunds);
  if (setting.payouts) await setSandboxSwitch(env, "payouts", setting.payouts);
  await setSandboxSwitch(env, "webhooks", setting.webhooks);
}

/**
 * KNOWN LIMIT (docs/decisions/0028, chapa.server.ts): Chapa has no refund verify, and a part refund
 * leaves the payment reading paid, so only its webhook settles it; one whose webhook Chapa never sends
 * waits for an admin for ever. So the refunds switch drops no webhook while a part refund is in flight.
 */
async function refundsSetting(world: World, setting: SandboxSwitchSetting<"refunds">, partRefund = false) {
  if (setting !== "drop_webhook") return setting;
  const { pendingRefunds } = await inFlight(world);
  return partRefund || pendingRefunds.some((refund) => refund.amountSantim < CONSULTATION_FEE_SANTIM) ? "succeed" : setting;
}

/** The env an invocation runs with: one that dies once the provider took a request when the event says so, else the real one. */
const invocationEnv = (crash: boolean) => (crash ? crashingEnv() : env);

/**
 * KNOWN GAP, left out until it is fixed (see the report of issue 27 item 8): a refund Chapa refused
 * (it keeps the refused request under our reference) whose refusal we never wrote (the Worker died) is
 * asked again, answered "reference has been used before", read as taken, and stays pending for ever
 * (the payment reads paid, and no webhook will come). So no Worker dies after a refund was refused.
 */
const refundCrash = (provider: { refunds: SandboxSwitchSetting<"refunds">; crash: boolean }) =>
  provider.crash && provider.refunds !== "fail";

async function playOne(world: World, event: OneEvent) {
  const clock = () => new Date(world.clockMs);
  const at = (index: number) => world.cases[index % world.cases.length]!;
  const among = async (kind: Parameters<typeof candidatesFor>[1], index: number) => {
    const able = await candidatesFor(world, kind);
    return able[index % able.length]!;
  };
  switch (event.kind) {
    case "charge_webhook":
      await chargeWebhook(at(event.at).txRef);
      return;
    case "late_payment": {
      await providerSays({ ...event.provider, refunds: await refundsSetting(world, event.provider.refunds) });
      // Still awaiting payment: its window closes before the provider's word comes. Paid already: a second payment.
      const { consultationId, patientId, txRef } = at(event.at);
      const [row] = await db.select().from(consultations).where(eq(consultations.id, consultationId));
      if (row?.status === "accepted_awaiting_payment") {
        await db
          .update(consultations)
          .set({ paymentDeadlineAt: new Date(Date.now() - 1_000) })
          .where(eq(consultations.id, consultationId));
        await chargeWebhook(txRef);
      } else {
        await chargeWebhook(await attemptPaidAtProvider(consultationId, patientId));
      }
      return;
    }
    case "end": {
      const { consultationId } = await among("end", event.at);
      const [row] = await db.select().from(consultations).where(eq(consultations.id, consultationId));
      if (row?.status === "in_progress") await endAt(consultationId, world.clockMs - MINUTE_MS);
      return;
    }
    case "patient_confirms": {
      const { patientId, consultationId } = await among("held_after_end", event.at);
      await confirmConsultationComplete(db, patientId, consultationId, clock());
      return;
    }
    case "time_passes":
      world.clockMs += event.ms;
      return;
    case "release_job":
      await Promise.all(Array.from({ length: event.twice ? 2 : 1 }, () => releaseDueEscrows(db, clock())));
      return;
    case "open_dispute":
      await openDisputeOf(world, await among("held_after_end", event.at));
      return;
    case "resolve_dispute": {
      const dispute = await disputeOf(db, (await among("open_dispute", event.at)).consultationId);
      if (!dispute) return;
      // The gap of a whole refund the other way round (see taken_back): none is decided for a payment Chapa
      // already gave back. A part refund is: the take-back settles it and charges back the rest.
      const [paid] = await db.select().from(escrows).where(eq(escrows.consultationId, dispute.consultationId));
      const givenBack = paid && (await db.select().from(payments).where(eq(payments.id, paid.paymentId)))[0];
      if (givenBack && world.takenBack.has(givenBack.txRef) && event.resolution === "refund_full") return;
      await providerSays({
        ...event.provider,
        refunds: await refundsSetting(world, event.provider.refunds, event.resolution === "refund_part"),
      });
      const decision = { resolution: event.resolution, refundPartSantim: event.refundPartSantim, note: "Decided on the record." };
      await Promise.all(
        Array.from({ length: event.twice ? 2 : 1 }, () => {
          const invocation = invocationEnv(refundCrash(event.provider));
          const context = { db: createDatabase(invocation.DB), config: config() };
          return surviving(resolveDispute(invocation, context, world.adminId, dispute.id, decision, clock()));
        }),
      );
      return;
    }
    case "refund_job":
      await providerSays({ ...event.provider, refunds: await refundsSetting(world, event.provider.refunds) });
      await surviving(moveRefundsOn(invocationEnv(refundCrash(event.provider)), config(), clock()));
      return;
    case "payout_run":
      await providerSays(event.provider);
      await Promise.all(
        Array.from({ length: event.twice ? 2 : 1 }, () =>
          surviving(runPayouts(invocationEnv(event.provider.crash), config(), clock(), { adminId: world.adminId })),
        ),
      );
      return;
    case "payout_job":
      await providerSays(event.provider);
      await surviving(movePayoutsOn(invocationEnv(event.provider.crash), config(), clock()));
      return;
    case "webhook_replay": {
      if (world.webhooks.length === 0) return;
      const { body, signature } = world.webhooks[event.pick % world.webhooks.length]!;
      await postToWebhook(body, signature);
      return;
    }
    case "taken_back": {
      // One of the consultation's payments we captured (its first, or a late or second one).
      const { consultationId } = at(event.at);
      const captured = (await db.select().from(payments).where(eq(payments.consultationId, consultationId))).filter(
        (payment) => payment.status === "paid" || payment.status === "paid_after_expiry",
      );
      const payment = captured[event.pick % Math.max(captured.length, 1)];
      if (!payment) return;
      // KNOWN GAPS, left out until they are fixed: a payment given back at Chapa after a refund of ours
      // failed leaves that refund's money in escrow for an admin, whom no decision lets take it out; and one
      // given back while a refund of all of it is ours settles that refund on Chapa's word, and shows no
      // difference on the reconciliation page should Chapa's webhook never come. (Given back while a part
      // refund is ours, the take-back settles it and charges back the rest.)
      const ours = await db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
      if (ours.some((refund) => refund.status === "failed" || refund.amountSantim === payment.amountSantim)) return;
      await providerSays({ webhooks: event.webhooks });
      if (await takeBackSandboxTransaction(config(), env, payment.txRef, event.how)) world.takenBack.add(payment.txRef);
      return;
    }
    case "late_webhooks_arrive":
      await setSandboxSwitch(env, "webhooks", "on_time");
      await sendHeldSandboxWebhooks(config(), env);
      return;
    case "reconcile":
      await reconcileWithProvider(env, config(), clock(), { adminId: world.adminId });
      return;
  }
}

/**
 * The provider answers again: the jobs run, a day apart, until nothing of this world is in flight, its
 * webhooks for payments we never heard of sent again (Chapa retries them) and its late ones arriving after
 * each day's jobs; what the code leaves before an admin, an admin asks the provider about again.
 */
async function settleEverything(world: World) {
  await providerAnswersWell();
  for (let round = 0; round < 10; round++) {
    const rows = await rowsOf(world);
    for (const payment of rows.payments)
      if (payment.status === "initialized" && (await sandboxTransaction(env, payment.txRef))?.status === "success")
        await chargeWebhook(payment.txRef);
    const { pendingRefunds, pendingPayouts } = await inFlight(world);
    if (pendingRefunds.length === 0 && pendingPayouts.length === 0 && round > 0) return;
    world.clockMs += DAY_MS;
    const now = new Date(world.clockMs);
    await moveRefundsOn(env, config(), now);
    await movePayoutsOn(env, config(), now);
    for (const refund of pendingRefunds.filter((one) => one.reviewReason))
      await decideRefund(env, config(), world.adminId, refund.id, { kind: "ask_again" }, now);
    for (const payout of pendingPayouts.filter((one) => one.reviewReason))
      await decidePayout(env, config(), world.adminId, payout.id, { kind: "ask_again" }, now);
    // Late webhooks come after the jobs asked again (the order that makes a retry meet "reference used").
    await sendHeldSandboxWebhooks(config(), env);
  }
}

async function inFlight(world: World) {
  const rows = await rowsOf(world);
  return {
    pendingRefunds: rows.refunds.filter((refund) => refund.status === "pending"),
    pendingPayouts: rows.payouts.filter((payout) => payout.status === "pending"),
  };
}

const idsOf = (world: World) => ({ caseIds: world.cases.map((one) => one.consultationId), doctorIds: world.doctorIds });

// ---------------------------------------------------------------------------------------------------
// The invariants, read back from D1: the journal against itself, then against the rows it records.

const sumOf = (amounts: Iterable<number>) => [...amounts].reduce((total, amount) => total + amount, 0);
/** A credit balance of `santim` (what we owe), written without a negative zero. */
const credit = (santim: number) => 0 - santim;

/** This world's journal: its entries (with their lines), found by the consultations and doctors they are about. */
async function journalOf(world: World) {
  const { caseIds, doctorIds } = idsOf(world);
  const entries = await db
    .select()
    .from(ledgerEntries)
    .where(or(inArray(ledgerEntries.consultationId, caseIds), inArray(ledgerEntries.doctorId, doctorIds)));
  const lines: Array<typeof ledgerLines.$inferSelect> = [];
  for (const slice of inSlices(entries.map((entry) => entry.id)))
    lines.push(...(await db.select().from(ledgerLines).where(inArray(ledgerLines.entryId, slice))));
  const balance = (account: LedgerAccount, subject?: string) =>
    sumOf(
      lines
        .filter((line) => line.account === account && (subject === undefined || line.subject === subject))
        .map((line) => line.amountSantim),
    );
  return { entries, lines, balance };
}

async function rowsOf(world: World) {
  const { caseIds, doctorIds } = idsOf(world);
  return {
    payments: await db.select().from(payments).where(inArray(payments.consultationId, caseIds)),
    escrows: await db.select().from(escrows).where(inArray(escrows.consultationId, caseIds)),
    refunds: await db.select().from(refunds).where(inArray(refunds.consultationId, caseIds)),
    payouts: await db.select().from(payouts).where(inArray(payouts.doctorId, doctorIds)),
    disputes: await Promise.all(caseIds.map((id) => disputeOf(db, id))),
  };
}

async function assertBooksBalance(world: World) {
  const journal = await journalOf(world);
  const rows = await rowsOf(world);
  // This world's part of the journal sums to zero, entry by entry, each entry of two lines or more.
  expect(sumOf(journal.lines.map((line) => line.amountSantim))).toBe(0);
  for (const entry of journal.entries) {
    const lines = journal.lines.filter((line) => line.entryId === entry.id);
    expect(lines.length, entry.idempotencyKey).toBeGreaterThanOrEqual(2);
    expect(sumOf(lines.map((line) => line.amountSantim)), entry.idempotencyKey).toBe(0);
  }

  // What the provider holds for us (and kept as its charge) is minus what we owe: escrow, payables, in transit, revenue.
  const assets = journal.balance("provider_clearing") + journal.balance("provider_fees");
  const liabilities = sumOf(
    LEDGER_ACCOUNTS.filter((account) => account !== "provider_clearing" && account !== "provider_fees").map((account) =>
      journal.balance(account),
    ),
  );
  expect(assets).toBe(credit(liabilities));

  // ... and is what the rows say came in, less what went back and what was paid out.
  const captured = rows.payments.filter((payment) => payment.status === "paid" || payment.status === "paid_after_expiry");
  const succeeded = <Row extends { status: string; amountSantim: number }>(all: Row[]) =>
    sumOf(all.filter((row) => row.status === "succeeded").map((row) => row.amountSantim));
  // Charged back (by the patient's bank, or a refund in Chapa's dashboard): what the provider gave back
  // beyond our own refunds of that payment left the books, from the escrow while it was held or back
  // from the doctor and the platform once it had been released (the reversal's entry names the doctor).
  const chargebacks = rows.escrows
    .filter((escrow) => escrow.status === "charged_back")
    .map((escrow) => {
      const payment = rows.payments.find((one) => one.id === escrow.paymentId)!;
      const key = `payment:${payment.txRef}:reversed`;
      const ourRefunds = succeeded(rows.refunds.filter((refund) => refund.paymentId === payment.id && refund.channel === "provider"));
      return {
        consultationId: escrow.consultationId,
        key,
        amountSantim: payment.amountSantim - ourRefunds,
        fromRelease: journal.entries.find((entry) => entry.idempotencyKey === key)?.doctorId != null,
      };
    });
  const chargebackOf = (consultationId: string) => chargebacks.find((one) => one.consultationId === consultationId);
  // The provider's charges: on each payment, and on each transfer that went out (booked when it settled).
  const transferFees = sumOf(rows.payouts.map((payout) => payout.feeSantim ?? 0));
  expect(journal.balance("provider_fees")).toBe(sumOf(captured.map((payment) => sandboxChargeOf(payment.amountSantim))) + transferFees);
  expect(journal.balance("provider_clearing")).toBe(
    sumOf(captured.map((payment) => payment.amountSantim - sandboxChargeOf(payment.amountSantim))) -
      succeeded(rows.refunds) -
      succeeded(rows.payouts) -
      transferFees -
      sumOf(chargebacks.map((one) => one.amountSantim)),
  );

  // Each event of the rows is in the journal exactly once, and nothing else is.
  const keys = new Set(journal.entries.map((entry) => entry.idempotencyKey));
  const expectedKeys = new Set([
    ...captured.map((payment) => `payment:${payment.txRef}:captured`),
    ...rows.escrows
      .filter((escrow) => escrow.status === "released" || chargebackOf(escrow.consultationId)?.fromRelease)
      .map((escrow) => `consultation:${escrow.consultationId}:released`),
    ...rows.refunds.map((refund) => `refund:${refund.reference}:started`),
    ...rows.refunds
      .filter((refund) => refund.status !== "pending")
      .map((refund) => `refund:${refund.reference}:${refund.status === "succeeded" ? "settled" : "returned"}`),
    ...rows.payouts.map((payout) => `payout:${payout.reference}:started`),
    ...rows.payouts
      .filter((payout) => payout.status !== "pending")
      .map((payout) => `payout:${payout.reference}:${payout.status === "succeeded" ? "settled" : "returned"}`),
    ...rows.payouts.filter((payout) => (payout.feeSantim ?? 0) > 0).map((payout) => `payout:${payout.reference}:fee`),
    ...chargebacks.map((one) => one.key),
  ]);
  expect([...keys].sort()).toEqual([...expectedKeys].sort());

  // What was released, consultation by consultation: all of the fee, or what a dispute's decision left
  // (charged back after its release too: that is what is taken back from the doctor and the platform).
  const releasedOf = (consultationId: string) => {
    const escrow = rows.escrows.find((row) => row.consultationId === consultationId);
    if (!escrow || (escrow.status !== "released" && !chargebackOf(consultationId)?.fromRelease)) return 0;
    const dispute = rows.disputes.find((row) => row?.consultationId === consultationId);
    return escrow.amountSantim - (dispute?.status === "resolved" ? (dispute.refundSantim ?? 0) : 0);
  };

  for (const { consultationId } of world.cases) {
    const escrowBalance = journal.balance("escrow", consultationId);
    const ofCase = <Row extends { consultationId: string }>(all: Row[]) => all.filter((row) => row.consultationId === consultationId);
    const failedRefunds = sumOf(
      ofCase(rows.refunds)
        .filter((refund) => refund.status === "failed")
        .map((refund) => refund.amountSantim),
    );
    const pendingRefunds = sumOf(
      ofCase(rows.refunds)
        .filter((refund) => refund.status === "pending")
        .map((refund) => refund.amountSantim),
    );
    // A late payment with no refund yet (the job starts one); one whose refund failed counts with the failed.
    const refundAsked = new Set(ofCase(rows.refunds).map((refund) => refund.paymentId));
    const lateUnrefunded = sumOf(
      ofCase(captured)
        .filter((payment) => payment.status === "paid_after_expiry" && !refundAsked.has(payment.id))
        .map((payment) => payment.amountSantim),
    );
    const chargeback = chargebackOf(consultationId);
    // The escrow never owes us: it holds at most what came in for it.
    expect(escrowBalance).toBeLessThanOrEqual(0);
    expect(escrowBalance).toBe(
      credit(sumOf(ofCase(captured).map((payment) => payment.amountSantim))) +
        releasedOf(consultationId) +
        sumOf(ofCase(rows.refunds).map((refund) => refund.amountSantim)) -
        failedRefunds +
        (chargeback && !chargeback.fromRelease ? chargeback.amountSantim : 0),
    );
    // Settled (released, refunded, charged back, or never started): nothing left in escrow but what a failed refund returned for an admin.
    const escrow = rows.escrows.find((row) => row.consultationId === consultationId);
    if (!escrow || escrow.status === "released" || escrow.status === "refunded" || escrow.status === "charged_back")
      expect(escrowBalance, `escrow of ${consultationId} (${escrow?.status ?? "none"})`).toBe(credit(failedRefunds + lateUnrefunded));
    expect(journal.balance("refunds_in_transit", consultationId)).toBe(credit(pendingRefunds));
  }

  for (const doctorId of world.doctorIds) {
    const ofDoctor = rows.payouts.filter((payout) => payout.doctorId === doctorId);
    const theirs = world.cases.filter((one) => one.doctorId === doctorId);
    const earned = sumOf(theirs.map((one) => splitRelease(releasedOf(one.consultationId)).doctorSantim));
    // A chargeback after the release takes back from the doctor exactly what that release gave them.
    const clawedBack = sumOf(
      theirs
        .filter((one) => chargebackOf(one.consultationId)?.fromRelease)
        .map((one) => splitRelease(releasedOf(one.consultationId)).doctorSantim),
    );
    const sent = sumOf(ofDoctor.filter((payout) => payout.status !== "failed").map((payout) => payout.amountSantim));
    const payable = journal.balance("doctor_payable", doctorId);
    // What a doctor is owed is what was released to them less what was sent and what a chargeback took
    // back (below zero after a claw-back of money already sent: their next payouts recover it).
    expect(payable, `doctor_payable of ${doctorId}`).toBe(credit(earned - sent - clawedBack));
    expect(journal.balance("payouts_in_transit", doctorId)).toBe(
      credit(sumOf(ofDoctor.filter((payout) => payout.status === "pending").map((payout) => payout.amountSantim))),
    );
  }
  expect(journal.balance("platform_revenue")).toBe(
    credit(
      sumOf(
        world.cases
          .filter((one) => !chargebackOf(one.consultationId)?.fromRelease)
          .map((one) => splitRelease(releasedOf(one.consultationId)).platformSantim),
      ),
    ),
  );
  // Nothing is pending without a next step: a refund is due for the job (its next attempt set) or before
  // an admin (a review reason); a payout through the provider is due for the job unless before an admin.
  for (const refund of rows.refunds.filter((one) => one.status === "pending"))
    expect(refund.reviewReason !== null || refund.nextAttemptAt !== null, `refund ${refund.reference} has a next step`).toBe(true);
  for (const payout of rows.payouts.filter((one) => one.status === "pending"))
    expect(payout.channel, `payout ${payout.reference} has a next step`).toBe("provider");
  // The webhook route answered every webhook, replays included, without an error of its own.
  expect(world.webhookStatuses.filter((status) => status >= 500)).toEqual([]);
}

/**
 * The whole journal, every run's: it sums to zero, entry by entry (each of two lines or more), each key
 * once, and nothing we owe (escrow, money in transit, revenue) is in debit for anyone (a doctor's payable
 * may be, after a chargeback took back what was already sent them). Every transfer the sandbox made is
 * one payout's, and every refund it made is one refund's.
 * Checked once after the runs, so that a run that breaks it is found (and shrunk) by its own world's checks.
 */
async function assertWholeJournalBalances() {
  const [whole] = await db.all<{ total: number; unbalanced: number; thin: number; keys: number; entries: number; inDebit: number }>(
    sql`SELECT
       (SELECT coalesce(sum(amount_santim), 0) FROM ledger_lines) AS total,
       (SELECT count(*) FROM (SELECT entry_id FROM ledger_lines GROUP BY entry_id HAVING sum(amount_santim) <> 0)) AS unbalanced,
       (SELECT count(*) FROM ledger_entries e WHERE (SELECT count(*) FROM ledger_lines l WHERE l.entry_id = e.id) < 2) AS thin,
       (SELECT count(DISTINCT idempotency_key) FROM ledger_entries) AS keys,
       (SELECT count(*) FROM ledger_entries) AS entries,
       (SELECT count(*) FROM (SELECT account, subject FROM ledger_lines WHERE account NOT IN ('provider_clearing', 'provider_fees', 'doctor_payable')
          GROUP BY account, subject HAVING sum(amount_santim) > 0)) AS inDebit`,
  );
  expect(whole).toEqual({ total: 0, unbalanced: 0, thin: 0, keys: whole!.entries, entries: whole!.entries, inDebit: 0 });
  const transfers = await sandboxRecords<{ reference: string; createdAt: number }>(env, TRANSFERS_PREFIX);
  const refundsMade = (await sandboxRecords<{ reference: string; status: string; createdAt: number }>(env, REFUNDS_PREFIX)).filter(
    (refund) => refund.status === "refunded",
  );
  const payoutRows = await db.select({ reference: payouts.reference }).from(payouts);
  const refundRows = await db.select({ reference: refunds.reference, status: refunds.status }).from(refunds);
  for (const transfer of transfers)
    expect(
      payoutRows.filter((row) => row.reference === transfer.reference),
      transfer.reference,
    ).toHaveLength(1);
  for (const refund of refundsMade)
    expect(
      refundRows.filter((row) => row.reference === refund.reference),
      refund.reference,
    ).toEqual([{ reference: refund.reference, status: "succeeded" }]);
}

/**
 * Once settled: nothing pending; Chapa's money for this world is our books'; each refund and transfer
 * the provider made is one of ours made once (none sent twice, none failed here and made there); and
 * after a last reconciliation every payment it gave back without our asking is on the reconciliation
 * page, its escrow charged back.
 */
async function assertProviderAgrees(world: World) {
  const rows = await rowsOf(world);
  expect(rows.refunds.filter((refund) => refund.status === "pending")).toEqual([]);
  expect(rows.payouts.filter((payout) => payout.status === "pending")).toEqual([]);

  // 1. What the sandbox received for this world's payments (less its charge), less what it gave back and
  // what it sent (with its fees), is our provider_clearing; its charges and fees are our provider_fees.
  const journal = await journalOf(world);
  const theirs = await providerMoneyOf(
    rows.payments.map((payment) => payment.txRef),
    rows.payouts.map((payout) => payout.reference),
  );
  expect({ clearing: journal.balance("provider_clearing"), fees: journal.balance("provider_fees") }, "our books against Chapa's").toEqual({
    clearing: theirs.heldSantim,
    fees: theirs.feesSantim,
  });

  // 2. Nothing sent twice, nothing failed here and made there: refund by refund, transfer by transfer.
  const paymentOf = (paymentId: string) => rows.payments.find((payment) => payment.id === paymentId)!;
  for (const refund of rows.refunds) {
    const atProvider = await readSandboxRecord<{ status: string; amountSantim: number }>(env, `${REFUNDS_PREFIX}${refund.reference}`);
    // A payment given back without our asking settles our refund of it on the provider's word (nothing more was sent).
    if (world.takenBack.has(paymentOf(refund.paymentId).txRef) && atProvider?.status !== "refunded") continue;
    if (refund.status === "succeeded")
      expect(atProvider, refund.reference).toMatchObject({ status: "refunded", amountSantim: refund.amountSantim });
    else expect(atProvider?.status ?? "never asked", refund.reference).not.toBe("refunded");
  }
  for (const payout of rows.payouts) {
    const atProvider = await readSandboxRecord<{ status: string; amountSantim: number }>(env, `${TRANSFERS_PREFIX}${payout.reference}`);
    if (payout.status === "succeeded")
      expect(atProvider, payout.reference).toMatchObject({ status: "success", amountSantim: payout.amountSantim });
    else expect(atProvider?.status ?? "never taken", payout.reference).not.toBe("success");
  }
  // The money the provider gave back to patients at our asking is what our succeeded refunds say, payment by payment.
  for (const payment of rows.payments) {
    if (world.takenBack.has(payment.txRef)) continue;
    const atProvider = await sandboxTransaction(env, payment.txRef);
    const ours = sumOf(
      rows.refunds
        .filter((refund) => refund.paymentId === payment.id && refund.status === "succeeded")
        .map((refund) => refund.amountSantim),
    );
    expect(atProvider?.refundedSantim ?? 0, `refunded of ${payment.txRef}`).toBe(ours);
  }

  // 4. Every payment given back without our asking is an open difference on the reconciliation page, and
  // the escrow it paid is charged back (unless our own refund of it had already taken it out of escrow).
  await reconcileWithProvider(env, config(), new Date(), { adminId: world.adminId });
  for (const txRef of world.takenBack) {
    const differences = await db
      .select({ kind: reconciliationDifferences.kind, status: reconciliationDifferences.status })
      .from(reconciliationDifferences)
      .where(eq(reconciliationDifferences.reference, txRef));
    expect(differences, `the reconciliation page shows ${txRef}`).toContainEqual({ kind: "charged_back", status: "open" });
    const payment = rows.payments.find((one) => one.txRef === txRef)!;
    const escrow = (await db.select().from(escrows).where(eq(escrows.paymentId, payment.id)))[0];
    if (escrow && escrow.status !== "refunded") expect(escrow.status, `escrow paid by ${txRef}`).toBe("charged_back");
  }
}

/** Later runs' payout runs leave this world's doctors alone (a deactivated doctor is still paid what is theirs: they have no account now). */
async function retireDoctors(world: World) {
  await db.update(doctors).set({ status: "inactive" }).where(inArray(doctors.userId, world.doctorIds));
  await db.delete(doctorPayoutAccounts).where(inArray(doctorPayoutAccounts.doctorId, world.doctorIds));
}

describe("the ledger under random events", () => {
  it("balances after any sequence of payments, replays, releases, disputes, refunds and payouts, and agrees with the provider", async () => {
    routeOwnCallsToWorker();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await fc.assert(
      fc.asyncProperty(scenario, async (drawn) => {
        await providerAnswersWell();
        const played = await buildWorld(drawn);
        try {
          for (const event of drawn.events) await play(played, event);
          await assertBooksBalance(played);
          await settleEverything(played);
          await assertBooksBalance(played);
          await assertProviderAgrees(played);
          // Nothing went wrong loudly either. A charge.refunded replayed (or racing the job) after its
          // refund settled is logged for admins as a refund not of ours: noise, not a money error.
          const errors = logged.mock.calls.map((call) => call.map(String).join(" "));
          expect(errors.filter((error) => !error.includes('"event":"refund_webhook_without_refund"'))).toEqual([]);
        } finally {
          logged.mockClear();
          await retireDoctors(played);
          world = null;
        }
      }),
      // A fixed seed, so the suite plays the same 25 sequences every run and a failure is one anyone can
      // replay; change it (or drop it) to explore others, as when breaking the code on purpose.
      { numRuns: 25, interruptAfterTimeLimit: 150_000, seed: PROPERTY_SEED },
    );
    await assertWholeJournalBalances();
  }, 300_000);
});
