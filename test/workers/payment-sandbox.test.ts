// The local sandbox as a stand-in for Chapa, read through the Chapa adapter itself: refunds and
// transfers kept in R2 as Chapa would keep them, settled with webhooks in Chapa's formats signed as Chapa
// signs them, a reference refused as "used before" the second time, and its switches making it misbehave
// as Chapa does (a refusal, an answer lost after the call was taken, a 503, a transfer kept queued or
// refused outside transfer hours, webhooks twice, late or never), while its verify tells the truth as
// Chapa's does (a refund only as its payment reads); its balance and lists; its checkout, which sends
// the browser and the webhook only to the app's own origin; and its page, /dev/payments.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";

import { action, loader } from "~/routes/dev.payments._index";
import { loadConfig } from "~/server/env.server";
import { sandboxBalanceSantim, sandboxProvider, takeBackSandboxTransaction } from "~/server/payments/sandbox.server";
import { sandboxTransaction, saveSandboxTransaction } from "~/server/payments/sandbox-store.server";
import { sandboxSwitches, setSandboxSwitch } from "~/server/payments/sandbox-switches.server";
import { heldSandboxWebhookCount, sendHeldSandboxWebhooks } from "~/server/payments/sandbox-webhook.server";
import { readWebhookEvent } from "~/server/payments/webhook-event.server";
import { isValidWebhookSignature } from "~/server/payments/webhook-signature.server";

import { Visitor } from "./browser-like";
import { checkoutOf, ORIGIN } from "./fixtures";

// The sandbox's R2 outlives a test here: each test leaves the switches as it found them, and its
// references are its own.
afterEach(async () => {
  vi.restoreAllMocks();
  await setSandboxSwitch(env, "refunds", "succeed");
  await setSandboxSwitch(env, "payouts", "succeed");
  await setSandboxSwitch(env, "webhooks", "on_time");
});

const unique = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;

const sandbox = () => sandboxProvider(loadConfig(env), env, ORIGIN);

/** The webhooks the sandbox posts to our webhook route, caught on their way (with their signatures). */
function catchWebhooks() {
  const caught: Array<{ body: string; signature: string | null; payload: Record<string, unknown> }> = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (request.url !== `${ORIGIN}/payments/webhook`) return realFetch(input, init);
    const body = await request.text();
    caught.push({ body, signature: request.headers.get("x-chapa-signature"), payload: JSON.parse(body) as Record<string, unknown> });
    return new Response("ok");
  });
  return caught;
}

/** A payment of `amountSantim` started in the sandbox and paid at its checkout (its own webhook aside). */
async function paidInSandbox(amountSantim = 15_000) {
  const txRef = `qoda-${crypto.randomUUID()}`;
  await sandbox().initialize(checkoutOf(txRef, { amountSantim }));
  await saveSandboxTransaction(env, { ...(await sandboxTransaction(env, txRef))!, status: "success" });
  return txRef;
}

const signedBySandbox = (webhook: { body: string; signature: string | null }) =>
  isValidWebhookSignature(sandbox().webhookSecret, webhook.body, webhook.signature);

const transferTo = (reference: string, changes: Record<string, unknown> = {}) => ({
  reference,
  amountSantim: 120_050,
  bankCode: "946",
  accountName: "Dr. Hana Tesfaye",
  accountNumber: "1000123456789",
  ...changes,
});

describe("refunds in the sandbox", () => {
  it("gives a whole payment back with a signed charge.refunded carrying our reference and amount; the payment then reads refunded", async () => {
    const refund1 = unique("refund");
    const webhooks = catchWebhooks();
    const txRef = await paidInSandbox();
    const provider = sandbox();
    const outcome = await provider.refund({ txRef, reference: refund1, amountSantim: 15_000, reason: "Paid after the window closed" });
    // Its answer says what was given back: Chapa's own word, as good as a verify for a part refund.
    expect(outcome).toEqual({ kind: "accepted", providerReference: expect.stringMatching(/^SBX/), amountSantim: 15_000 });

    expect(webhooks).toHaveLength(1);
    expect(await signedBySandbox(webhooks[0]!)).toBe(true);
    expect(webhooks[0]!.payload).toMatchObject({
      event: "charge.refunded",
      status: "refunded",
      tx_ref: txRef,
      amount: "150.00",
      currency: "ETB",
      meta: { reference: refund1 },
    });
    expect(readWebhookEvent(webhooks[0]!.body)).toEqual({
      kind: "refund",
      txRef,
      reference: refund1,
      status: "refunded",
      amountSantim: 15_000,
    });
    // As with Chapa, the refund is read from its payment: there is no refund verify.
    expect(await provider.verifyRefund({ txRef, reference: refund1 })).toEqual({
      status: "refunded",
      providerStatus: "refunded",
      amountSantim: null,
    });
    expect(await provider.verify(txRef)).toMatchObject({ status: "refunded", providerStatus: "refunded", amountSantim: 15_000 });

    // Like Chapa, a second request under a reference it has is refused as used, whatever it asks: nothing more is given.
    expect(await provider.refund({ txRef, reference: refund1, amountSantim: 15_000, reason: "again" })).toEqual({ kind: "reference_used" });
    expect(await provider.refund({ txRef, reference: refund1, amountSantim: 100, reason: "other" })).toEqual({ kind: "reference_used" });
    expect(webhooks).toHaveLength(1);
    expect((await provider.refund({ txRef, reference: unique("refund"), amountSantim: 100, reason: "more" })).kind).toBe("refused");
  });

  it("gives part of a payment back; the payment reads paid (not refunded) until all of it is back", async () => {
    const part1 = unique("part");
    const part3 = unique("part");
    const webhooks = catchWebhooks();
    const txRef = await paidInSandbox();
    const provider = sandbox();
    expect((await provider.refund({ txRef, reference: part1, amountSantim: 5_050, reason: "part" })).kind).toBe("accepted");
    expect(await provider.verifyRefund({ txRef, reference: part1 })).toMatchObject({ status: "not_refunded", providerStatus: "success" });
    expect(await provider.refund({ txRef, reference: unique("part"), amountSantim: 9_951, reason: "too much" })).toEqual({
      kind: "refused",
      message: "The refund amount is more than what is left of the payment",
    });
    expect((await provider.refund({ txRef, reference: part3, amountSantim: 9_950, reason: "the rest" })).kind).toBe("accepted");
    expect((await provider.verify(txRef))!.status).toBe("refunded");
    expect(webhooks.map((webhook) => [webhook.payload.amount, (webhook.payload.meta as { reference: string }).reference])).toEqual([
      ["50.50", part1],
      ["99.50", part3],
    ]);
  });

  it("refuses a refund of a payment it does not know or that was not paid", async () => {
    const provider = sandbox();
    expect(await provider.refund({ txRef: "qoda-nobody", reference: unique("r"), amountSantim: 100, reason: "x" })).toEqual({
      kind: "refused",
      message: "Invalid transaction or Transaction not found",
    });
    const txRef = await paidInSandbox();
    await saveSandboxTransaction(env, { ...(await sandboxTransaction(env, txRef))!, status: "pending" });
    expect((await provider.refund({ txRef, reference: unique("r"), amountSantim: 100, reason: "x" })).kind).toBe("refused");
    expect((await provider.refund({ txRef, reference: "r".repeat(101), amountSantim: 100, reason: "x" })).kind).toBe("refused");
    await expect(provider.refund({ txRef, reference: unique("r"), amountSantim: 0.5, reason: "x" })).rejects.toThrow(RangeError);
  });

  it("with its refunds switch on fail, refuses as not eligible: no webhook, the payment still reads paid, and the reference stays used", async () => {
    const refundF = unique("refund");
    const webhooks = catchWebhooks();
    const txRef = await paidInSandbox();
    const provider = sandbox();
    await setSandboxSwitch(env, "refunds", "fail");
    expect(await provider.refund({ txRef, reference: refundF, amountSantim: 15_000, reason: "x" })).toEqual({
      kind: "refused",
      message: "This transaction is not eligible for refund",
    });
    expect(webhooks).toHaveLength(0);
    expect(await provider.verifyRefund({ txRef, reference: refundF })).toMatchObject({ status: "not_refunded" });
    await setSandboxSwitch(env, "refunds", "succeed");
    expect(await provider.refund({ txRef, reference: refundF, amountSantim: 15_000, reason: "x" })).toEqual({ kind: "reference_used" });
    expect((await provider.refund({ txRef, reference: unique("refund"), amountSantim: 15_000, reason: "x" })).kind).toBe("accepted");
  });

  it("with its refunds switch on timeout_after_taking, makes the refund and loses the answer: the caller sees a timeout, a retry sees the reference used", async () => {
    const refundT = unique("refund");
    const webhooks = catchWebhooks();
    const txRef = await paidInSandbox();
    const provider = sandbox();
    await setSandboxSwitch(env, "refunds", "timeout_after_taking");
    expect(await provider.refund({ txRef, reference: refundT, amountSantim: 15_000, reason: "x" })).toMatchObject({
      kind: "unreachable",
      message: expect.stringContaining("timeout"),
    });
    expect(webhooks).toHaveLength(1);
    expect((await provider.verify(txRef))!.status).toBe("refunded");
    expect(await provider.refund({ txRef, reference: refundT, amountSantim: 15_000, reason: "x" })).toEqual({ kind: "reference_used" });
  });

  it("with its refunds switch on unreachable, answers 503 and takes nothing; on drop_webhook, refunds without a webhook", async () => {
    const webhooks = catchWebhooks();
    const txRef = await paidInSandbox();
    const provider = sandbox();
    await setSandboxSwitch(env, "refunds", "unreachable");
    const reference = unique("refund");
    expect((await provider.refund({ txRef, reference, amountSantim: 15_000, reason: "x" })).kind).toBe("unreachable");
    expect((await provider.verify(txRef))!.status).toBe("success");
    await setSandboxSwitch(env, "refunds", "drop_webhook");
    expect((await provider.refund({ txRef, reference, amountSantim: 15_000, reason: "x" })).kind).toBe("accepted");
    expect((await provider.verify(txRef))!.status).toBe("refunded");
    expect(webhooks).toHaveLength(0);
  });
});

describe("transfers in the sandbox", () => {
  it("lists real Ethiopian banks and wallets with their account number lengths, in Chapa's format", async () => {
    const banks = (await sandbox().banks())!;
    expect(banks).toEqual(
      expect.arrayContaining([
        { code: "946", name: "Commercial Bank of Ethiopia (CBE)", isMobileMoney: false, accountNumberLength: 13, currency: "ETB" },
        { code: "855", name: "telebirr", isMobileMoney: true, accountNumberLength: 10, currency: "ETB" },
      ]),
    );
    expect(banks.map((bank) => bank.name)).toEqual(expect.arrayContaining(["Awash Bank", "Dashen Bank", "Bank of Abyssinia", "M-Pesa"]));
    expect(new Set(banks.map((bank) => bank.code)).size).toBe(banks.length);
  });

  it("sends money with a signed payout.success carrying our reference; verify says success with its fee; the reference is refused after", async () => {
    const payout1 = unique("payout");
    const webhooks = catchWebhooks();
    const provider = sandbox();
    expect(await provider.transfer(transferTo(payout1))).toEqual({ kind: "accepted", providerReference: null });
    expect(webhooks).toHaveLength(1);
    expect(await signedBySandbox(webhooks[0]!)).toBe(true);
    expect(webhooks[0]!.payload).toMatchObject({
      event: "payout.success",
      type: "Payout",
      status: "success",
      reference: payout1,
      amount: "1200.50",
      charge: "5.00",
      currency: "ETB",
      bank_id: 946,
      account_number: "1000123456789",
    });
    expect(readWebhookEvent(webhooks[0]!.body)).toEqual({ kind: "payout", reference: payout1, status: "success", failureReason: null });
    expect(await provider.verifyTransfer(payout1)).toEqual({
      status: "success",
      providerStatus: "success",
      amountSantim: 120_050,
      feeSantim: 500,
      failureReason: null,
    });
    // A second transfer under the reference, the same or not, is refused as used: never sent twice.
    expect(await provider.transfer(transferTo(payout1))).toEqual({ kind: "reference_used" });
    expect(await provider.transfer(transferTo(payout1, { amountSantim: 1 }))).toEqual({ kind: "reference_used" });
    expect(webhooks).toHaveLength(1);
  });

  it("refuses a bank it does not have, or an account number that is not one of that bank's; it then knows no such transfer", async () => {
    const t1 = unique("t");
    const webhooks = catchWebhooks();
    const provider = sandbox();
    expect(await provider.transfer(transferTo(t1, { bankCode: "999" }))).toEqual({ kind: "refused", message: "Invalid bank code" });
    expect(await provider.transfer(transferTo(unique("t"), { accountNumber: "12345" }))).toEqual({
      kind: "refused",
      message: "The account number must be 13 digits for Commercial Bank of Ethiopia (CBE)",
    });
    expect((await provider.transfer(transferTo(unique("t"), { bankCode: "855", accountNumber: "09112233ab" }))).kind).toBe("refused");
    expect(await provider.verifyTransfer(t1)).toMatchObject({ status: "not_found" });
    expect(webhooks).toHaveLength(0);
  });

  it("with its payouts switch on fail, takes the transfer, then fails it with a reason in the webhook and verify", async () => {
    const payoutF = unique("payout");
    const webhooks = catchWebhooks();
    const provider = sandbox();
    await setSandboxSwitch(env, "payouts", "fail");
    expect((await provider.transfer(transferTo(payoutF))).kind).toBe("accepted");
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]!.payload).toMatchObject({ event: "payout.failed", status: "failed", reference: payoutF });
    const event = readWebhookEvent(webhooks[0]!.body);
    expect(event).toEqual({
      kind: "payout",
      reference: payoutF,
      status: "failed",
      failureReason: expect.stringContaining("could not be credited"),
    });
    expect(await provider.verifyTransfer(payoutF)).toMatchObject({
      status: "failed",
      amountSantim: 120_050,
      feeSantim: 0,
      failureReason: (event as { failureReason: string }).failureReason,
    });
  });

  it("with its payouts switch on queued, keeps the transfer queued (a word we do not know) until the switch changes, then sends it", async () => {
    const payoutQ = unique("payout");
    const webhooks = catchWebhooks();
    const provider = sandbox();
    await setSandboxSwitch(env, "payouts", "queued");
    expect((await provider.transfer(transferTo(payoutQ))).kind).toBe("accepted");
    expect(await provider.verifyTransfer(payoutQ)).toMatchObject({ status: "unknown", providerStatus: "queued" });
    expect(webhooks).toHaveLength(0);
    await setSandboxSwitch(env, "payouts", "succeed");
    expect(await provider.verifyTransfer(payoutQ)).toMatchObject({ status: "success", providerStatus: "success" });
    expect(webhooks.map((webhook) => webhook.payload.event)).toEqual(["payout.success"]);
  });

  it("with its payouts switch on timeout_after_taking, sends and loses the answer; on closed_hours and unreachable, takes nothing", async () => {
    const webhooks = catchWebhooks();
    const provider = sandbox();
    await setSandboxSwitch(env, "payouts", "timeout_after_taking");
    const taken = unique("payout");
    expect((await provider.transfer(transferTo(taken))).kind).toBe("unreachable");
    expect(await provider.verifyTransfer(taken)).toMatchObject({ status: "success" });
    expect(webhooks).toHaveLength(1);
    await setSandboxSwitch(env, "payouts", "closed_hours");
    const closed = unique("payout");
    expect(await provider.transfer(transferTo(closed))).toMatchObject({
      kind: "refused",
      message: expect.stringContaining("Monday to Saturday"),
    });
    expect(await provider.verifyTransfer(closed)).toMatchObject({ status: "not_found" });
    await setSandboxSwitch(env, "payouts", "unreachable");
    expect((await provider.transfer(transferTo(unique("payout")))).kind).toBe("unreachable");
    expect(await provider.verifyTransfer(taken)).toBeNull();
    await setSandboxSwitch(env, "payouts", "drop_webhook");
    const dropped = unique("payout");
    expect((await provider.transfer(transferTo(dropped))).kind).toBe("accepted");
    expect(await provider.verifyTransfer(dropped)).toMatchObject({ status: "success" });
    expect(webhooks).toHaveLength(1);
  });
});

describe("the sandbox's webhooks, balance, lists and dashboard", () => {
  it("sends webhooks twice, or holds them back until they are sent from its page, as its switch says", async () => {
    const webhooks = catchWebhooks();
    const provider = sandbox();
    await setSandboxSwitch(env, "webhooks", "twice");
    await provider.transfer(transferTo(unique("payout")));
    expect(webhooks).toHaveLength(2);
    expect(webhooks[0]!.body).toBe(webhooks[1]!.body);
    await setSandboxSwitch(env, "webhooks", "late");
    await provider.transfer(transferTo(unique("payout")));
    expect(webhooks).toHaveLength(2);
    expect(await heldSandboxWebhookCount(env)).toBeGreaterThanOrEqual(1);
    await sendHeldSandboxWebhooks(loadConfig(env), env);
    expect(webhooks).toHaveLength(3);
    expect(await heldSandboxWebhookCount(env)).toBe(0);
  });

  it("holds what was paid less its charge, less what went back and what was sent with its fee; and lists them as Chapa does", async () => {
    catchWebhooks();
    const provider = sandbox();
    const before = await sandboxBalanceSantim(env);
    const txRef = await paidInSandbox(15_000);
    expect(await sandboxBalanceSantim(env)).toBe(before + 15_000 - 525);
    await provider.refund({ txRef, reference: unique("refund"), amountSantim: 5_000, reason: "part" });
    const payout = unique("payout");
    await provider.transfer(transferTo(payout, { amountSantim: 2_000 }));
    expect(await sandboxBalanceSantim(env)).toBe(before + 15_000 - 525 - 5_000 - 2_000 - 500);
    expect(await provider.balance()).toEqual({ availableSantim: before + 6_975, ledgerSantim: before + 6_975 });

    const since = new Date(Date.now() - 60_000);
    const transactions = (await provider.transactions(since))!;
    expect(transactions.find((transaction) => transaction.txRef === txRef)).toMatchObject({
      providerReference: expect.stringMatching(/^SBX/),
      status: "success",
      amountSantim: 15_000,
      chargeSantim: 525,
    });
    expect((await provider.transfers(since))!.find((transfer) => transfer.reference === payout)).toMatchObject({
      status: "success",
      amountSantim: 2_000,
      feeSantim: 500,
    });
    expect(await provider.transactions(new Date(Date.now() + 60_000))).toEqual([]);
  });

  it("plays Chapa's dashboard: a refund made there, or a chargeback, each with its webhook naming no reference of ours", async () => {
    const webhooks = catchWebhooks();
    const config = loadConfig(env);
    const refundedThere = await paidInSandbox();
    const chargedBack = await paidInSandbox();
    expect(await takeBackSandboxTransaction(config, env, refundedThere, "refunded")).toBe(true);
    expect(await takeBackSandboxTransaction(config, env, chargedBack, "reversed")).toBe(true);
    expect(await takeBackSandboxTransaction(config, env, chargedBack, "reversed")).toBe(false);
    expect(webhooks.map((webhook) => readWebhookEvent(webhook.body))).toEqual([
      { kind: "refund", txRef: refundedThere, reference: null, status: "refunded", amountSantim: 15_000 },
      { kind: "refund", txRef: chargedBack, reference: null, status: "reversed", amountSantim: 15_000 },
    ]);
    expect((await sandbox().verify(chargedBack))!.status).toBe("reversed");
  });

  it("keeps each switch on its own, succeeding until set, and reads a spoiled switches file as the defaults", async () => {
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "succeed", webhooks: "on_time" });
    await setSandboxSwitch(env, "payouts", "fail");
    await setSandboxSwitch(env, "refunds", "drop_webhook");
    expect(await sandboxSwitches(env)).toEqual({ refunds: "drop_webhook", payouts: "fail", webhooks: "on_time" });
    await env.FILES.put("payment-sandbox/switches.json", "{not json");
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "succeed", webhooks: "on_time" });
    await env.FILES.put("payment-sandbox/switches.json", JSON.stringify({ refunds: "explode", payouts: "queued" }));
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "queued", webhooks: "on_time" });
  });
});

describe("the sandbox's checkout, /dev/payments/checkout/:txRef", () => {
  it("takes a return and a callback URL only on the app's own origin", async () => {
    for (const changes of [
      { returnUrl: "https://evil.example/payments/return/x" },
      { callbackUrl: "https://evil.example/payments/webhook" },
      { returnUrl: `${ORIGIN}@evil.example/payments/return/x` },
      { returnUrl: "http://qoda.test/payments/return/x" },
      { returnUrl: "/payments/return/x" },
      { callbackUrl: "" },
    ]) {
      const txRef = `qoda-${crypto.randomUUID()}`;
      expect(await sandbox().initialize(checkoutOf(txRef, changes)), JSON.stringify(changes)).toEqual({
        ok: false,
        kind: "failed",
        message: `The ${changes.returnUrl === undefined ? "callback_url" : "return_url"} must be an address on ${ORIGIN}`,
      });
      expect(await sandboxTransaction(env, txRef)).toBeNull();
    }
    const txRef = `qoda-${crypto.randomUUID()}`;
    expect(await sandbox().initialize(checkoutOf(txRef))).toEqual({ ok: true, checkoutUrl: `${ORIGIN}/dev/payments/checkout/${txRef}` });
  });

  it("answers 400 and settles nothing when a transaction would return or call back to another site; on ours it pays and goes back", async () => {
    const webhooks = catchWebhooks();
    for (const changes of [{ returnUrl: "https://evil.example/phish" }, { callbackUrl: "https://evil.example/hook" }]) {
      const txRef = `qoda-${crypto.randomUUID()}`;
      await saveSandboxTransaction(env, {
        ...checkoutOf(txRef, changes),
        status: "pending",
        reference: "SBXOFFSITE",
        createdAt: Date.now(),
      });
      const refused = await new Visitor().post(`/dev/payments/checkout/${txRef}`, { outcome: "pay" });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("Location")).toBeNull();
      const page = await refused.text();
      expect(page).toContain("return or webhook address is outside this app, so it was refused and nothing changed.");
      expect(page).not.toContain('name="outcome"');
      const amharic = await new Visitor().post(`/dev/payments/checkout/${txRef}?lng=am`, { outcome: "fail" });
      expect(amharic.status).toBe(400);
      expect(await amharic.text()).toContain("የዚህ መክፈያ መመለሻ ወይም የዌብሁክ አድራሻ ከዚህ መተግበሪያ ውጭ ስለሆነ አልተቀበልነውም፤ ምንም አልተለወጠም።");
      expect((await sandboxTransaction(env, txRef))?.status).toBe("pending");
    }
    expect(webhooks).toEqual([]);

    const txRef = `qoda-${crypto.randomUUID()}`;
    await sandbox().initialize(checkoutOf(txRef));
    const paid = await new Visitor().post(`/dev/payments/checkout/${txRef}`, { outcome: "pay" });
    expect(paid.status).toBe(302);
    expect(paid.headers.get("Location")).toBe(`${ORIGIN}/payments/return/${txRef}`);
    expect((await sandboxTransaction(env, txRef))?.status).toBe("success");
    expect(webhooks.map((webhook) => webhook.payload.event)).toEqual(["charge.success"]);
  });
});

describe("the sandbox's page, /dev/payments", () => {
  /** The setting checked in one switch's form, and where that form posts. */
  function switchForm(html: string, which: string) {
    const form = html.split("<form").find((part) => part.includes(`data-testid="sandbox-switch-${which}"`))!;
    const checked = /<input[^>]*checked=""[^>]*>/.exec(form)?.[0];
    return { checked: checked && /value="(\w+)"/.exec(checked)?.[1], action: /action="([^"]+)"/.exec(form)?.[1] };
  }

  it("lists the refunds and transfers, and sets a switch with a plain form", async () => {
    catchWebhooks();
    const refundReference = unique("refund");
    const payoutReference = unique("payout");
    await sandbox().refund({ txRef: await paidInSandbox(), reference: refundReference, amountSantim: 7_550, reason: "part" });
    await setSandboxSwitch(env, "payouts", "fail");
    await sandbox().transfer(transferTo(payoutReference));

    const visitor = new Visitor();
    const page = await visitor.get("/dev/payments");
    expect(page.status).toBe(200);
    const html = await page.text();
    const refundCard = html.split(refundReference)[1]!.split("</li>")[0]!;
    expect(refundCard).toContain("75.50 ETB");
    expect(refundCard).toContain("Refunded");
    const transferCard = html.split(payoutReference)[1]!.split("</li>")[0]!;
    expect(transferCard).toContain("1200.50 ETB");
    expect(transferCard).toContain("Failed");
    expect(transferCard).toContain("could not be credited");
    expect(switchForm(html, "refunds").checked).toBe("succeed");
    expect(switchForm(html, "payouts").checked).toBe("fail");

    // Posted where the page's form posts, as a browser without JavaScript does.
    const formAction = switchForm(html, "refunds").action!;
    expect(formAction).toBe("/dev/payments?index");
    const saved = await visitor.post(formAction, { intent: "switch", switch: "refunds", setting: "drop_webhook" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/dev/payments");
    expect(await sandboxSwitches(env)).toEqual({ refunds: "drop_webhook", payouts: "fail", webhooks: "on_time" });
    const { html: after } = await visitor.follow(saved);
    expect(after).toContain("The sandbox setting is saved.");
    expect(switchForm(after, "refunds").checked).toBe("drop_webhook");
  });

  it("speaks Amharic", async () => {
    const html = await (await new Visitor().get("/dev/payments?lng=am")).text();
    expect(html).toContain("የክፍያ ሙከራ ቦታ፦ የቻፓ ምትክ");
    expect(html).toContain("በቻፓ ዳሽቦርድ መልስ");
    expect(html).toContain("ያስቀምጡ");
  });

  it("refuses a form that is not one of its switches, changing nothing", async () => {
    const visitor = new Visitor();
    const forms: Array<Record<string, string>> = [
      { intent: "switch", switch: "refunds", setting: "explode" },
      { intent: "switch", switch: "refunds", setting: "queued" },
      { intent: "switch", switch: "ledger", setting: "fail" },
      { intent: "take-back", txRef: "", how: "refunded" },
      { intent: "take-back", txRef: "qoda-x", how: "stolen" },
      { switch: "refunds", setting: "fail" },
      {},
    ];
    for (const fields of forms) {
      expect((await visitor.post("/dev/payments?index", fields)).status, JSON.stringify(fields)).toBe(400);
    }
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "succeed", webhooks: "on_time" });
  });

  it("does not exist in production", async () => {
    const context = { config: { ...loadConfig(env), standInsEnabled: false }, cloudflare: { env } } as unknown as AppLoadContext;
    const request = new Request(`${ORIGIN}/dev/payments`, {
      method: "POST",
      body: new URLSearchParams({ intent: "switch", switch: "refunds", setting: "fail" }),
    });
    await expect(loader({ context, request, params: {} })).rejects.toMatchObject({ status: 404 });
    await expect(action({ context, request, params: {} })).rejects.toMatchObject({ status: 404 });
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "succeed", webhooks: "on_time" });
  });
});
