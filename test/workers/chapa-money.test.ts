// Refunds, banks and transfers through the real Chapa adapter, against the stand-in that answers in
// Chapa's formats: what is sent (form or JSON, decimal birr), what is read back, and that an answer we
// cannot read is "we do not know" (unreachable or null), never a crash and never a guess.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";

import { loadConfig } from "~/server/env.server";
import { chapaProvider } from "~/server/payments/chapa.server";

import { CHAPA_API_URL, CHAPA_SECRET_KEY, CHAPA_WEBHOOK_SECRET, chapaStandIn } from "./chapa-stand-in";
import { checkoutOf } from "./fixtures";

afterEach(() => vi.restoreAllMocks());

const chapa = () => chapaProvider({ ...loadConfig(env), paymentProvider: "chapa", CHAPA_API_URL, CHAPA_SECRET_KEY, CHAPA_WEBHOOK_SECRET });

/** A payment of `amountSantim` started through the adapter and paid at the stand-in. */
async function paidAtChapa(standIn: ReturnType<typeof chapaStandIn>, amountSantim = 15_000) {
  const txRef = `qoda-${crypto.randomUUID()}`;
  const started = await chapa().initialize(checkoutOf(txRef, { amountSantim }));
  expect(started.ok).toBe(true);
  standIn.settle(txRef, "success");
  return txRef;
}

const transferTo = (reference: string, changes: Partial<{ amountSantim: number; bankCode: string }> = {}) => ({
  reference,
  amountSantim: 123_450,
  bankCode: "855",
  accountName: "Dr. Hana Tesfaye",
  accountNumber: "0911223344",
  ...changes,
});

describe("refunds at Chapa", () => {
  it("asks in Chapa's form format with our reference, and reads the refund from the transaction", async () => {
    const standIn = chapaStandIn();
    const txRef = await paidAtChapa(standIn);
    const provider = chapa();
    expect(await provider.verifyRefund({ txRef, reference: "refund-1" })).toEqual({
      status: "not_refunded",
      providerStatus: "success",
      amountSantim: null,
    });

    const outcome = await provider.refund({ txRef, reference: "refund-1", amountSantim: 15_000, reason: "Paid after the window closed" });
    expect(outcome).toEqual({ kind: "accepted", providerReference: `RF${txRef.slice(-8)}`, amountSantim: 15_000 });
    const [sent] = standIn.refundForms;
    expect(sent!.txRef).toBe(txRef);
    expect(sent!.contentType).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(sent!.form)).toEqual({
      reason: "Paid after the window closed",
      amount: "150.00",
      reference: "refund-1",
      "meta[reference]": "refund-1",
    });
    expect(standIn.authorizations.at(-1)).toBe(`Bearer ${CHAPA_SECRET_KEY}`);

    expect(await provider.verifyRefund({ txRef, reference: "refund-1" })).toEqual({
      status: "refunded",
      providerStatus: "refunded",
      amountSantim: null,
    });
    expect((await provider.verify(txRef))!.status).toBe("refunded");
    // Given back already: Chapa's no is a refusal, with its words.
    expect(await provider.refund({ txRef, reference: "refund-2", amountSantim: 15_000, reason: "again" })).toEqual({
      kind: "refused",
      message: "Transaction is not eligible for refund",
    });
  });

  it("sends a partial refund as decimal birr; the transaction reads refunded only once all is given back", async () => {
    const standIn = chapaStandIn();
    const txRef = await paidAtChapa(standIn);
    const provider = chapa();
    expect((await provider.refund({ txRef, reference: "part-1", amountSantim: 7_550, reason: "part" })).kind).toBe("accepted");
    expect(standIn.refundForms[0]!.form.get("amount")).toBe("75.50");
    expect(await provider.verifyRefund({ txRef, reference: "part-1" })).toMatchObject({
      status: "not_refunded",
      providerStatus: "success",
    });

    expect(await provider.refund({ txRef, reference: "part-2", amountSantim: 7_451, reason: "too much" })).toEqual({
      kind: "refused",
      message: "The amount exceeds the refundable amount.",
    });
    expect((await provider.refund({ txRef, reference: "part-3", amountSantim: 7_450, reason: "the rest" })).kind).toBe("accepted");
    expect(standIn.refundForms[2]!.form.get("amount")).toBe("74.50");
    expect(await provider.verifyRefund({ txRef, reference: "part-3" })).toMatchObject({ status: "refunded" });
  });

  it("refuses a refund of a payment Chapa does not know, and reads each transaction word for what it is", async () => {
    const standIn = chapaStandIn();
    const provider = chapa();
    expect(await provider.refund({ txRef: "qoda-unknown", reference: "r-1", amountSantim: 100, reason: "x" })).toEqual({
      kind: "refused",
      message: "Invalid transaction or Transaction not found",
    });
    expect(await provider.verifyRefund({ txRef: "qoda-unknown", reference: "r-1" })).toBeNull();

    const cases = [
      { word: "reversed", status: "refunded" },
      { word: "Refunded", status: "refunded" },
      { word: "pending", status: "unknown" },
      { word: "failed", status: "unknown" },
      { word: "refund in progress", status: "unknown" },
    ] as const;
    for (const { word, status } of cases) {
      const txRef = await paidAtChapa(standIn);
      standIn.settle(txRef, word);
      expect(await provider.verifyRefund({ txRef, reference: "r" }), word).toEqual({ status, providerStatus: word, amountSantim: null });
    }
  });
});

describe("banks and transfers at Chapa", () => {
  it("lists the active banks and wallets, with Chapa's id as the bank code", async () => {
    chapaStandIn();
    expect(await chapa().banks()).toEqual([
      { code: "946", name: "Commercial Bank of Ethiopia", isMobileMoney: false, accountNumberLength: 13, currency: "ETB" },
      { code: "855", name: "telebirr", isMobileMoney: true, accountNumberLength: 10, currency: "ETB" },
      { code: "130", name: "Abay Bank", isMobileMoney: false, accountNumberLength: null, currency: "ETB" },
    ]);
  });

  it("reads the SDK's boolean flags too, and leaves out a bank it cannot read", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(
      Response.json({
        message: "Banks retrieved",
        data: [
          { id: 1, name: "Bool Bank", acct_length: 9, is_mobilemoney: false, currency: "ETB" },
          { id: 2, name: "Bool Wallet", acct_length: 10, is_mobilemoney: true, is_active: true, currency: "ETB" },
          { id: 3, name: "Off Wallet", acct_length: 10, is_mobilemoney: true, is_active: false, currency: "ETB" },
          { id: "4", name: "Id as text", currency: "ETB" },
          { id: 5, currency: "ETB" },
          "not a bank",
        ],
      }),
    );
    expect(await chapa().banks()).toEqual([
      { code: "1", name: "Bool Bank", isMobileMoney: false, accountNumberLength: 9, currency: "ETB" },
      { code: "2", name: "Bool Wallet", isMobileMoney: true, accountNumberLength: 10, currency: "ETB" },
    ]);
  });

  it("queues a transfer in Chapa's JSON format and reads it back as it settles", async () => {
    const standIn = chapaStandIn();
    const provider = chapa();
    // Chapa's answer echoes our reference: it gives no reference of its own.
    expect(await provider.transfer(transferTo("payout-1"))).toEqual({ kind: "accepted", providerReference: null });
    expect(standIn.transferBodies[0]).toEqual({
      account_name: "Dr. Hana Tesfaye",
      account_number: "0911223344",
      amount: "1234.50",
      currency: "ETB",
      reference: "payout-1",
      bank_code: 855,
    });
    expect(await provider.verifyTransfer("payout-1")).toEqual({
      status: "pending",
      providerStatus: "pending",
      amountSantim: 123_450,
      feeSantim: 0,
      failureReason: null,
    });
    standIn.settleTransfer("payout-1", "success");
    expect(await provider.verifyTransfer("payout-1")).toEqual({
      status: "success",
      providerStatus: "success",
      amountSantim: 123_450,
      feeSantim: 0,
      failureReason: null,
    });

    // "Used before" means Chapa has it already: taken, for a verify to say what became of it.
    expect(await provider.transfer(transferTo("payout-1"))).toEqual({ kind: "reference_used" });
    expect(await provider.transfer(transferTo("payout-2", { bankCode: "777" }))).toEqual({
      kind: "refused",
      message: "The selected bank code is invalid.",
    });
    // Not a bank code Chapa could have given: refused before asking.
    const asked = standIn.transferBodies.length;
    expect((await provider.transfer(transferTo("payout-3", { bankCode: "cbe" }))).kind).toBe("refused");
    expect(standIn.transferBodies).toHaveLength(asked);
    // Chapa's own "not found" says plainly that nothing was taken under that reference.
    expect(await provider.verifyTransfer("payout-unknown")).toMatchObject({ status: "not_found", providerStatus: "Transfer not found" });
  });

  it("reads a failed transfer with its reason, cancelled as failed, and a word it does not know as unknown", async () => {
    const standIn = chapaStandIn();
    const provider = chapa();
    const cases = [
      { word: "failed", reason: "Invalid account", expected: { status: "failed", failureReason: "Invalid account" } },
      { word: "Cancelled", reason: null, expected: { status: "failed", failureReason: null } },
      { word: "reverted", reason: null, expected: { status: "unknown", failureReason: null } },
      { word: "queued", reason: null, expected: { status: "unknown", failureReason: null } },
    ] as const;
    for (const [index, { word, reason, expected }] of cases.entries()) {
      await provider.transfer(transferTo(`payout-${index}`));
      standIn.settleTransfer(`payout-${index}`, word, { failure_reason: reason });
      expect(await provider.verifyTransfer(`payout-${index}`), word).toEqual({
        ...expected,
        providerStatus: word,
        amountSantim: 123_450,
        feeSantim: 0,
      });
    }
  });
});

describe("Chapa answers it cannot read", () => {
  const unreadable = () => [
    Response.json({ status: "failed", message: "Server Error" }, { status: 500 }),
    new Response("<html>Bad gateway</html>", { status: 502 }),
    new Response("<html>OK</html>", { status: 200 }),
    new Response("<html>Not found</html>", { status: 404 }),
    Response.json({ status: "failed", message: "Too Many Attempts." }, { status: 429 }),
    Response.json(["not", "an", "object"]),
    Response.json({ status: "failed" }, { status: 400 }),
    Response.json({ status: "maybe", data: {} }),
  ];
  const failures = () => [
    new TypeError("Network connection lost."),
    new DOMException("The operation was aborted due to timeout", "TimeoutError"),
  ];

  it("makes a refund or a transfer unreachable (ask again later), never refused, accepted or a crash", async () => {
    const provider = chapa();
    const asks = [
      () => provider.refund({ txRef: "qoda-x", reference: "r-x", amountSantim: 100, reason: "x" }),
      () => provider.transfer(transferTo("t-x")),
    ];
    for (const ask of asks) {
      for (const answer of unreadable()) {
        vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(answer);
        expect(await ask(), `${answer.status}`).toMatchObject({ kind: "unreachable" });
      }
      for (const error of failures()) {
        vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(error);
        const outcome = await ask();
        expect(outcome).toMatchObject({ kind: "unreachable" });
        expect((outcome as { message: string }).message).toContain("could not be reached");
      }
    }
  });

  it("makes verifying a refund or a transfer, and listing banks, null", async () => {
    const provider = chapa();
    const reads = [
      () => provider.verifyRefund({ txRef: "qoda-x", reference: "r-x" }),
      () => provider.banks(),
      () => provider.verifyTransfer("t-x"),
    ];
    for (const read of reads) {
      for (const answer of [
        ...unreadable(),
        Response.json({ status: "success", data: "no list" }),
        Response.json({ message: "Banks", data: null }),
      ]) {
        vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(answer);
        expect(await read(), `${answer.status}`).toBeNull();
      }
      for (const error of failures()) {
        vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(error);
        expect(await read()).toBeNull();
      }
    }
    // A verify about another transfer is not about this one.
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(
      Response.json({ message: "Transfer details", status: "success", data: { status: "success", amount: 100, tx_ref: "someone-else" } }),
    );
    expect(await provider.verifyTransfer("t-x")).toBeNull();
    // An amount Chapa writes that is not an amount is no amount, not a guess.
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(
      Response.json({ message: "Transfer details", status: "success", data: { status: "success", amount: "a lot", tx_ref: "t-x" } }),
    );
    expect(await provider.verifyTransfer("t-x")).toEqual({
      status: "success",
      providerStatus: "success",
      amountSantim: null,
      feeSantim: null,
      failureReason: null,
    });
  });

  it("gives every call a time limit", async () => {
    const signals: Array<AbortSignal | null | undefined> = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_input, init) => {
      signals.push(init?.signal);
      return Response.json({}, { status: 503 });
    });
    const provider = chapa();
    await provider.refund({ txRef: "qoda-x", reference: "r-x", amountSantim: 100, reason: "x" });
    await provider.verifyRefund({ txRef: "qoda-x", reference: "r-x" });
    await provider.banks();
    await provider.transfer(transferTo("t-x"));
    await provider.verifyTransfer("t-x");
    expect(signals).toHaveLength(5);
    for (const signal of signals) {
      expect(signal).toBeInstanceOf(AbortSignal);
      expect(signal!.aborted).toBe(false);
    }
  });
});
