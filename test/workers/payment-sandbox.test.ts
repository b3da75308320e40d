// The local sandbox as a stand-in for Chapa's refunds and transfers: kept in R2 as Chapa would keep
// them, settled with webhooks in Chapa's formats signed as Chapa signs them, and told by its switches to
// refuse, fail, or keep its webhook, while its verify always tells the truth; and its page, /dev/payments.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";

import { action, loader } from "~/routes/dev.payments._index";
import { loadConfig } from "~/server/env.server";
import { sandboxProvider } from "~/server/payments/sandbox.server";
import { sandboxTransaction, saveSandboxTransaction } from "~/server/payments/sandbox-store.server";
import { sandboxSwitches, setSandboxSwitch } from "~/server/payments/sandbox-switches.server";
import { readWebhookEvent } from "~/server/payments/webhook-event.server";
import { isValidWebhookSignature } from "~/server/payments/webhook-signature.server";

import { Visitor } from "./browser-like";
import { ORIGIN } from "./fixtures";

// The sandbox's R2 outlives a test here: each test leaves the switches as it found them, and its
// references are its own.
afterEach(async () => {
  vi.restoreAllMocks();
  await setSandboxSwitch(env, "refunds", "succeed");
  await setSandboxSwitch(env, "payouts", "succeed");
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
  await sandbox().initialize({
    txRef,
    amountSantim,
    email: "abebe@example.com",
    firstName: "Abebe",
    lastName: "Kebede",
    callbackUrl: `${ORIGIN}/payments/webhook`,
    returnUrl: `${ORIGIN}/payments/return/${txRef}`,
  });
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
  it("gives a whole payment back with a signed charge.refunded carrying our reference; both verifies say refunded", async () => {
    const refund1 = unique("refund");
    const refund2 = unique("refund");
    const webhooks = catchWebhooks();
    const txRef = await paidInSandbox();
    const provider = sandbox();
    const outcome = await provider.refund({ txRef, reference: refund1, amountSantim: 15_000, reason: "Paid after the window closed" });
    expect(outcome).toEqual({ kind: "accepted", providerReference: expect.stringMatching(/^SBX/) });

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
    expect(readWebhookEvent(webhooks[0]!.body)).toEqual({ kind: "refund", txRef, reference: refund1, status: "refunded" });
    expect(await provider.verifyRefund({ txRef, reference: refund1 })).toEqual({
      status: "refunded",
      providerStatus: "refunded",
      amountSantim: 15_000,
    });
    expect(await provider.verify(txRef)).toMatchObject({ status: "refunded", providerStatus: "refunded", amountSantim: 15_000 });

    // The same request again is the same refund; another under its reference, or any more, is refused.
    expect(await provider.refund({ txRef, reference: refund1, amountSantim: 15_000, reason: "again" })).toEqual(outcome);
    expect(webhooks).toHaveLength(1);
    expect(await provider.refund({ txRef, reference: refund1, amountSantim: 100, reason: "other" })).toEqual({
      kind: "refused",
      message: "Refund reference has been used before",
    });
    expect((await provider.refund({ txRef, reference: refund2, amountSantim: 100, reason: "more" })).kind).toBe("refused");
  });

  it("gives part of a payment back; the transaction reads paid until all of it is back", async () => {
    const part1 = unique("part");
    const part2 = unique("part");
    const part3 = unique("part");
    const webhooks = catchWebhooks();
    const txRef = await paidInSandbox();
    const provider = sandbox();
    expect((await provider.refund({ txRef, reference: part1, amountSantim: 5_050, reason: "part" })).kind).toBe("accepted");
    expect(await provider.verifyRefund({ txRef, reference: part1 })).toMatchObject({ status: "refunded", amountSantim: 5_050 });
    expect((await provider.verify(txRef))!.status).toBe("success");
    expect(await provider.refund({ txRef, reference: part2, amountSantim: 9_951, reason: "too much" })).toEqual({
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

  it("refuses a refund of a payment it does not know or that was not paid, and knows no refund it never took", async () => {
    const r1 = unique("r");
    const r2 = unique("r");
    const r3 = unique("r");
    const provider = sandbox();
    expect(await provider.refund({ txRef: "qoda-nobody", reference: r1, amountSantim: 100, reason: "x" })).toEqual({
      kind: "refused",
      message: "Invalid transaction or Transaction not found",
    });
    const txRef = await paidInSandbox();
    await saveSandboxTransaction(env, { ...(await sandboxTransaction(env, txRef))!, status: "pending" });
    expect((await provider.refund({ txRef, reference: r2, amountSantim: 100, reason: "x" })).kind).toBe("refused");
    expect(await provider.verifyRefund({ txRef, reference: r2 })).toBeNull();
    expect((await provider.refund({ txRef, reference: "r".repeat(101), amountSantim: 100, reason: "x" })).kind).toBe("refused");
    await expect(provider.refund({ txRef, reference: r3, amountSantim: 0.5, reason: "x" })).rejects.toThrow(RangeError);
  });

  it("with its refunds switch on fail, refuses: no webhook, verify says failed, and the reference can be used again", async () => {
    const refundF = unique("refund");
    const webhooks = catchWebhooks();
    const txRef = await paidInSandbox();
    const provider = sandbox();
    await setSandboxSwitch(env, "refunds", "fail");
    const outcome = await provider.refund({ txRef, reference: refundF, amountSantim: 15_000, reason: "x" });
    expect(outcome).toMatchObject({ kind: "refused", message: expect.stringContaining("fail") });
    expect(webhooks).toHaveLength(0);
    expect(await provider.verifyRefund({ txRef, reference: refundF })).toEqual({
      status: "failed",
      providerStatus: "refused",
      amountSantim: null,
    });
    expect((await provider.verify(txRef))!.status).toBe("success");

    await setSandboxSwitch(env, "refunds", "succeed");
    expect((await provider.refund({ txRef, reference: refundF, amountSantim: 15_000, reason: "x" })).kind).toBe("accepted");
    expect(webhooks).toHaveLength(1);
  });

  it("with its refunds switch on drop_webhook, refunds without a webhook: only verify tells", async () => {
    const refundD = unique("refund");
    const webhooks = catchWebhooks();
    const txRef = await paidInSandbox();
    const provider = sandbox();
    await setSandboxSwitch(env, "refunds", "drop_webhook");
    expect((await provider.refund({ txRef, reference: refundD, amountSantim: 15_000, reason: "x" })).kind).toBe("accepted");
    expect(await provider.verifyRefund({ txRef, reference: refundD })).toMatchObject({ status: "refunded" });
    expect((await provider.verify(txRef))!.status).toBe("refunded");
    expect(webhooks).toHaveLength(0);
  });
});

describe("transfers in the sandbox", () => {
  it("lists real Ethiopian banks and wallets with their account number lengths", async () => {
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

  it("sends money with a signed payout.success carrying our reference; verify says success", async () => {
    const payout1 = unique("payout");
    const webhooks = catchWebhooks();
    const provider = sandbox();
    const outcome = await provider.transfer(transferTo(payout1));
    expect(outcome).toEqual({ kind: "accepted", providerReference: expect.stringMatching(/^SBX/) });
    expect(webhooks).toHaveLength(1);
    expect(await signedBySandbox(webhooks[0]!)).toBe(true);
    expect(webhooks[0]!.payload).toMatchObject({
      event: "payout.success",
      type: "Payout",
      status: "success",
      reference: payout1,
      amount: "1200.50",
      currency: "ETB",
      bank_id: 946,
      account_number: "1000123456789",
    });
    expect(readWebhookEvent(webhooks[0]!.body)).toEqual({ kind: "payout", reference: payout1, status: "success", failureReason: null });
    expect(await provider.verifyTransfer(payout1)).toEqual({
      status: "success",
      providerStatus: "success",
      amountSantim: 120_050,
      failureReason: null,
    });

    expect(await provider.transfer(transferTo(payout1))).toEqual(outcome);
    expect(webhooks).toHaveLength(1);
    expect(await provider.transfer(transferTo(payout1, { amountSantim: 1 }))).toEqual({
      kind: "refused",
      message: "Transfer reference has been used before",
    });
  });

  it("refuses a bank it does not have, or an account number that is not one of that bank's", async () => {
    const t1 = unique("t");
    const t2 = unique("t");
    const t3 = unique("t");
    const webhooks = catchWebhooks();
    const provider = sandbox();
    expect(await provider.transfer(transferTo(t1, { bankCode: "999" }))).toEqual({ kind: "refused", message: "Invalid bank code" });
    expect(await provider.transfer(transferTo(t2, { accountNumber: "12345" }))).toEqual({
      kind: "refused",
      message: "The account number must be 13 digits for Commercial Bank of Ethiopia (CBE)",
    });
    expect((await provider.transfer(transferTo(t3, { bankCode: "855", accountNumber: "09112233ab" }))).kind).toBe("refused");
    expect(await provider.verifyTransfer(t1)).toBeNull();
    expect(webhooks).toHaveLength(0);
  });

  it("with its payouts switch on fail, takes the transfer, then fails it with a reason in the webhook and verify", async () => {
    const payoutF = unique("payout");
    const webhooks = catchWebhooks();
    const provider = sandbox();
    await setSandboxSwitch(env, "payouts", "fail");
    expect((await provider.transfer(transferTo(payoutF))).kind).toBe("accepted");
    expect(webhooks).toHaveLength(1);
    expect(await signedBySandbox(webhooks[0]!)).toBe(true);
    expect(webhooks[0]!.payload).toMatchObject({ event: "payout.failed", status: "failed", reference: payoutF });
    const event = readWebhookEvent(webhooks[0]!.body);
    expect(event).toEqual({
      kind: "payout",
      reference: payoutF,
      status: "failed",
      failureReason: expect.stringContaining("could not be credited"),
    });
    expect(await provider.verifyTransfer(payoutF)).toEqual({
      status: "failed",
      providerStatus: "failed",
      amountSantim: 120_050,
      failureReason: (event as { failureReason: string }).failureReason,
    });
  });

  it("with its payouts switch on drop_webhook, sends the money without a webhook: only verify tells", async () => {
    const payoutD = unique("payout");
    const webhooks = catchWebhooks();
    const provider = sandbox();
    await setSandboxSwitch(env, "payouts", "drop_webhook");
    expect((await provider.transfer(transferTo(payoutD))).kind).toBe("accepted");
    expect(await provider.verifyTransfer(payoutD)).toMatchObject({ status: "success", amountSantim: 120_050 });
    expect(webhooks).toHaveLength(0);
  });

  it("keeps each switch on its own, succeeding until set", async () => {
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "succeed" });
    await setSandboxSwitch(env, "payouts", "fail");
    await setSandboxSwitch(env, "refunds", "drop_webhook");
    expect(await sandboxSwitches(env)).toEqual({ refunds: "drop_webhook", payouts: "fail" });
    // A switches file spoiled by hand reads as the defaults, never as a crash.
    await env.FILES.put("payment-sandbox/switches.json", "{not json");
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "succeed" });
    await env.FILES.put("payment-sandbox/switches.json", JSON.stringify({ refunds: "explode", payouts: "fail" }));
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "fail" });
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
    const saved = await visitor.post(formAction, { switch: "refunds", setting: "drop_webhook" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/dev/payments");
    expect(await sandboxSwitches(env)).toEqual({ refunds: "drop_webhook", payouts: "fail" });
    const { html: after } = await visitor.follow(saved);
    expect(after).toContain("The sandbox setting is saved.");
    expect(switchForm(after, "refunds").checked).toBe("drop_webhook");
  });

  it("speaks Amharic", async () => {
    const html = await (await new Visitor().get("/dev/payments?lng=am")).text();
    expect(html).toContain("የሙከራ ክፍያ፦ ተመላሾችና ዝውውሮች");
    expect(html).toContain("ለሐኪሞች የሚደረጉ ዝውውሮች");
    expect(html).toContain("ያስቀምጡ");
  });

  it("refuses a form that is not one of its switches, changing nothing", async () => {
    const visitor = new Visitor();
    const forms: Array<Record<string, string>> = [
      { switch: "refunds", setting: "explode" },
      { switch: "ledger", setting: "fail" },
      { setting: "fail" },
      {},
    ];
    for (const fields of forms) {
      expect((await visitor.post("/dev/payments?index", fields)).status, JSON.stringify(fields)).toBe(400);
    }
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "succeed" });
  });

  it("does not exist in production", async () => {
    const context = { config: { ...loadConfig(env), standInsEnabled: false }, cloudflare: { env } } as unknown as AppLoadContext;
    const request = new Request(`${ORIGIN}/dev/payments`, {
      method: "POST",
      body: new URLSearchParams({ switch: "refunds", setting: "fail" }),
    });
    await expect(loader({ context, request, params: {} })).rejects.toMatchObject({ status: 404 });
    await expect(action({ context, request, params: {} })).rejects.toMatchObject({ status: 404 });
    expect(await sandboxSwitches(env)).toEqual({ refunds: "succeed", payouts: "succeed" });
  });
});
