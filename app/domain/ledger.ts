// The money ledger's rules, with no I/O (docs/decisions/0028): double entry in santim, after
// TigerBeetle's design. Every movement of money is one entry of lines on accounts that sum to zero,
// identified by an idempotency key that says what it records, so recording the same event twice is
// recording it once. Balances are sums of lines, never kept by hand.
//
// Signs: a line's amount is a debit when positive and a credit when negative. Assets (what the provider
// holds for us, the provider's fees we paid) carry debit balances; what we owe (escrow, doctors'
// payables, money on its way out, our revenue) carries credit balances.
import { splitRelease } from "./money.ts";

export const LEDGER_ACCOUNTS = [
  /** Money the payment provider holds for us: in with each capture, out with each refund and payout. */
  "provider_clearing",
  /** What the provider kept of captures as its charge (an expense of the platform). */
  "provider_fees",
  /** A consultation's fee, held until it is released to the doctor or refunded (subject: the consultation). */
  "escrow",
  /** What the platform owes a doctor, released from escrow and not yet paid out (subject: the doctor). */
  "doctor_payable",
  /** A payout sent to a doctor's bank and not yet settled by the provider (subject: the doctor). */
  "payouts_in_transit",
  /** A refund asked of the provider and not yet settled (subject: the consultation). */
  "refunds_in_transit",
  /** The platform's fee from released consultations. */
  "platform_revenue",
  /**
   * What the platform paid from its own bank, outside the provider (refunds and payouts an admin settled
   * by hand): the provider still holds that money, so it is not taken from provider_clearing.
   */
  "paid_outside",
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** Accounts kept per consultation or per doctor; the others are the platform's own, with no subject. */
const SUBJECT_OF_ACCOUNT: Record<LedgerAccount, "consultation" | "doctor" | null> = {
  provider_clearing: null,
  provider_fees: null,
  escrow: "consultation",
  doctor_payable: "doctor",
  payouts_in_transit: "doctor",
  refunds_in_transit: "consultation",
  platform_revenue: null,
  paid_outside: null,
};

export const LEDGER_ENTRY_KINDS = [
  "payment_captured",
  "escrow_released",
  "refund_started",
  "refund_settled",
  "refund_returned",
  "payout_started",
  "payout_settled",
  "payout_returned",
  /** A payment taken back by the patient's bank or the provider without our asking (a chargeback, a reversal). */
  "charge_reversed",
  /** A charge of the provider's on a transfer (its fee), as its verify or its books report it. */
  "provider_fee_charged",
] as const;
type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

interface LedgerLine {
  account: LedgerAccount;
  /** The consultation or doctor the account is kept for; "" for the platform's own accounts. */
  subject: string;
  amountSantim: number;
}

/** What an entry is about, for finding it again (a consultation's money, a doctor's earnings). */
interface LedgerEntryLinks {
  consultationId?: string | null;
  doctorId?: string | null;
  paymentId?: string | null;
}

export interface LedgerEntry extends LedgerEntryLinks {
  /** Unique per event: the same event recorded twice is one entry. */
  idempotencyKey: string;
  kind: LedgerEntryKind;
  lines: LedgerLine[];
}

/**
 * An entry as the ledger's tables hold it: the entry's row and its lines' rows, under the id its writer
 * gives it (the ledger module's, or the demo seed's fixed one).
 */
export function ledgerEntryRows(entry: LedgerEntry, entryId: string, createdAt: Date) {
  return {
    entry: {
      id: entryId,
      idempotencyKey: entry.idempotencyKey,
      kind: entry.kind,
      consultationId: entry.consultationId ?? null,
      doctorId: entry.doctorId ?? null,
      paymentId: entry.paymentId ?? null,
      lineCount: entry.lines.length,
      createdAt,
    },
    lines: entry.lines.map((line) => ({ entryId, account: line.account, subject: line.subject, amountSantim: line.amountSantim })),
  };
}

export type LedgerRefusal = "unbalanced" | "not_an_amount" | "too_few_lines" | "wrong_subject";

/** Why an entry cannot be written, or null when it keeps every rule of the ledger. */
export function ledgerEntryRefusal(entry: Pick<LedgerEntry, "lines">): LedgerRefusal | null {
  if (entry.lines.length < 2) return "too_few_lines";
  if (entry.lines.some((line) => !Number.isSafeInteger(line.amountSantim) || line.amountSantim === 0)) return "not_an_amount";
  if (entry.lines.some((line) => (SUBJECT_OF_ACCOUNT[line.account] === null) !== (line.subject === ""))) return "wrong_subject";
  return entry.lines.reduce((sum, line) => sum + line.amountSantim, 0) === 0 ? null : "unbalanced";
}

/** An entry as planned, refused loudly if it breaks a rule: a bug, never a user's mistake. */
function entry(plan: LedgerEntry): LedgerEntry {
  const lines = plan.lines.filter((line) => line.amountSantim !== 0);
  const refusal = ledgerEntryRefusal({ lines });
  if (refusal) throw new Error(`ledger entry ${plan.idempotencyKey} refused: ${refusal}`);
  return { ...plan, lines };
}

const line = (account: LedgerAccount, subject: string, amountSantim: number): LedgerLine => ({ account, subject, amountSantim });

/**
 * A verified payment: the provider holds the amount less its charge, and the whole amount is held in
 * the consultation's escrow. A late payment is captured the same way, to be refunded from there.
 */
export function paymentCaptured(capture: {
  txRef: string;
  paymentId: string;
  consultationId: string;
  amountSantim: number;
  chargeSantim: number;
}): LedgerEntry {
  const charge = Math.min(Math.max(capture.chargeSantim, 0), capture.amountSantim);
  return entry({
    idempotencyKey: `payment:${capture.txRef}:captured`,
    kind: "payment_captured",
    consultationId: capture.consultationId,
    paymentId: capture.paymentId,
    lines: [
      line("provider_clearing", "", capture.amountSantim - charge),
      line("provider_fees", "", charge),
      line("escrow", capture.consultationId, -capture.amountSantim),
    ],
  });
}

/** A consultation's escrow released: the doctor's share to their payable, the platform's fee to revenue. */
export function escrowReleased(release: { consultationId: string; doctorId: string; amountSantim: number }): LedgerEntry {
  const { doctorSantim, platformSantim } = splitRelease(release.amountSantim);
  return entry({
    idempotencyKey: `consultation:${release.consultationId}:released`,
    kind: "escrow_released",
    consultationId: release.consultationId,
    doctorId: release.doctorId,
    lines: [
      line("escrow", release.consultationId, release.amountSantim),
      line("doctor_payable", release.doctorId, -doctorSantim),
      line("platform_revenue", "", -platformSantim),
    ],
  });
}

/**
 * A refund asked of the provider (reference: ours, unique): the amount leaves the consultation's escrow
 * and is in transit to the patient until the provider settles it.
 */
export function refundStarted(refund: { reference: string; consultationId: string; paymentId: string; amountSantim: number }): LedgerEntry {
  return entry({
    idempotencyKey: `refund:${refund.reference}:started`,
    kind: "refund_started",
    consultationId: refund.consultationId,
    paymentId: refund.paymentId,
    lines: [
      line("escrow", refund.consultationId, refund.amountSantim),
      line("refunds_in_transit", refund.consultationId, -refund.amountSantim),
    ],
  });
}

/**
 * A refund or payout an admin made outside the provider (recorded with their reason): the amount leaves
 * where it was (a refund's escrow, when none was asked of the provider, or a refund or payout in transit)
 * as money paid from the platform's own bank (the provider still holds it). Its key is the refund's or
 * payout's settlement key, so it is settled once, by the provider or outside it.
 */
export function madeOutside(
  made:
    | { from: "escrow" | "refunds_in_transit"; reference: string; consultationId: string; paymentId: string; amountSantim: number }
    | { from: "payouts_in_transit"; reference: string; doctorId: string; amountSantim: number },
): LedgerEntry {
  const lines = (subject: string) => [line(made.from, subject, made.amountSantim), line("paid_outside", "", -made.amountSantim)];
  if (made.from === "payouts_in_transit")
    return entry({
      idempotencyKey: `payout:${made.reference}:settled`,
      kind: "payout_settled",
      doctorId: made.doctorId,
      lines: lines(made.doctorId),
    });
  return entry({
    idempotencyKey: `refund:${made.reference}:settled`,
    kind: "refund_settled",
    consultationId: made.consultationId,
    paymentId: made.paymentId,
    lines: lines(made.consultationId),
  });
}

/**
 * A payment taken back without our asking (a chargeback, a reversal, a refund made in the provider's
 * dashboard): it leaves what the provider holds for us, from the consultation's escrow while it is held,
 * or, once released, back from the doctor's payable (a negative adjustment the next payout recovers) and
 * the platform's revenue in the release's own split.
 */
export function chargeReversed(reversal: {
  txRef: string;
  paymentId: string;
  consultationId: string;
  amountSantim: number;
  released: { doctorId: string } | null;
}): LedgerEntry {
  const { doctorSantim, platformSantim } = splitRelease(reversal.amountSantim);
  return entry({
    idempotencyKey: `payment:${reversal.txRef}:reversed`,
    kind: "charge_reversed",
    consultationId: reversal.consultationId,
    paymentId: reversal.paymentId,
    doctorId: reversal.released?.doctorId ?? null,
    lines: reversal.released
      ? [
          line("doctor_payable", reversal.released.doctorId, doctorSantim),
          line("platform_revenue", "", platformSantim),
          line("provider_clearing", "", -reversal.amountSantim),
        ]
      : [line("escrow", reversal.consultationId, reversal.amountSantim), line("provider_clearing", "", -reversal.amountSantim)],
  });
}

/** The provider gave the refund back to the patient: the money leaves what the provider holds for us. */
export function refundSettled(refund: { reference: string; consultationId: string; paymentId: string; amountSantim: number }): LedgerEntry {
  return entry({
    idempotencyKey: `refund:${refund.reference}:settled`,
    kind: "refund_settled",
    consultationId: refund.consultationId,
    paymentId: refund.paymentId,
    lines: [line("refunds_in_transit", refund.consultationId, refund.amountSantim), line("provider_clearing", "", -refund.amountSantim)],
  });
}

/** A refund the provider could not make: the amount returns to the consultation's escrow, for an admin. */
export function refundReturned(refund: {
  reference: string;
  consultationId: string;
  paymentId: string;
  amountSantim: number;
}): LedgerEntry {
  return entry({
    idempotencyKey: `refund:${refund.reference}:returned`,
    kind: "refund_returned",
    consultationId: refund.consultationId,
    paymentId: refund.paymentId,
    lines: [
      line("refunds_in_transit", refund.consultationId, refund.amountSantim),
      line("escrow", refund.consultationId, -refund.amountSantim),
    ],
  });
}

/** A payout sent to a doctor's bank: their available money is in transit until the provider settles it. */
export function payoutStarted(payout: { reference: string; doctorId: string; amountSantim: number }): LedgerEntry {
  return entry({
    idempotencyKey: `payout:${payout.reference}:started`,
    kind: "payout_started",
    doctorId: payout.doctorId,
    lines: [
      line("doctor_payable", payout.doctorId, payout.amountSantim),
      line("payouts_in_transit", payout.doctorId, -payout.amountSantim),
    ],
  });
}

/** The doctor's bank received it: the money leaves what the provider holds for us. */
export function payoutSettled(payout: { reference: string; doctorId: string; amountSantim: number }): LedgerEntry {
  return entry({
    idempotencyKey: `payout:${payout.reference}:settled`,
    kind: "payout_settled",
    doctorId: payout.doctorId,
    lines: [line("payouts_in_transit", payout.doctorId, payout.amountSantim), line("provider_clearing", "", -payout.amountSantim)],
  });
}

/** The provider's charge on a transfer that went out: an expense, taken from what it holds for us. */
export function transferFeeCharged(fee: { reference: string; doctorId: string; feeSantim: number }): LedgerEntry {
  return entry({
    idempotencyKey: `payout:${fee.reference}:fee`,
    kind: "provider_fee_charged",
    doctorId: fee.doctorId,
    lines: [line("provider_fees", "", fee.feeSantim), line("provider_clearing", "", -fee.feeSantim)],
  });
}

/** A payout that failed: the money is the doctor's to be paid again, back in their payable. */
export function payoutReturned(payout: { reference: string; doctorId: string; amountSantim: number }): LedgerEntry {
  return entry({
    idempotencyKey: `payout:${payout.reference}:returned`,
    kind: "payout_returned",
    doctorId: payout.doctorId,
    lines: [
      line("payouts_in_transit", payout.doctorId, payout.amountSantim),
      line("doctor_payable", payout.doctorId, -payout.amountSantim),
    ],
  });
}
