// Money taken back without our asking (docs/decisions/0045): a chargeback by the patient's bank, a
// reversal, or a refund made in the provider's dashboard. Its webhook (or reconciliation finding the
// payment refunded) is only a prompt: the provider's verify must say the payment is refunded or reversed.
// Then, once: the consultation's escrow is frozen as charged back, its money leaves the books (from the
// escrow while it was held, or back from the doctor's payable and the platform's revenue once released:
// a negative adjustment the doctor's next payout recovers), an admin is shown it on the reconciliation
// page, and the patient and the doctor are told, in one batch.
import { and, eq, sql } from "drizzle-orm";

import { consultations, escrows, payments, refunds } from "~/db/schema";
import { chargeReversed } from "~/domain/ledger";
import { birrText } from "~/domain/money";
import { consultationLink } from "~/domain/notifications";
import { auditIfChanged } from "~/server/audit.server";
import { createDatabase } from "~/server/db/client.server";
import { refundedOf } from "~/server/db/refunded.server";
import type { AppConfig } from "~/server/env.server";
import { moneyEmail } from "~/server/mail/money-emails.server";
import { paymentProvider } from "~/server/payments/provider.server";
import { tellTimelineMoved } from "~/server/rooms.server";
import { deliverTidings, tidingsFor, tidingsStatements } from "~/server/tidings.server";

import { escrowMove } from "./escrow.server";
import { ledgerEntryStatements } from "./ledger.server";
import { type Difference, differenceStatement } from "./reconciliation-differences.server";

/** What came of a prompt that a payment was taken back. */
export type TakeBackOutcome = "charged_back" | "already_charged_back" | "noted" | "not_taken_back" | "unverified" | "not_ours";

/** The escrow states whose money a chargeback takes: held (or frozen for a dispute or a review), or released to the doctor. */
const TAKEABLE = ["held", "disputed", "in_review", "released"] as const;

export async function takeBackOf(env: Env, config: AppConfig, txRef: string, now: Date): Promise<TakeBackOutcome> {
  const db = createDatabase(env.DB);
  const payment = await db.query.payments.findFirst({ where: eq(payments.txRef, txRef) });
  if (!payment) return "not_ours";
  const verified = await paymentProvider(config, env, config.siteOrigin).verify(txRef);
  if (!verified) return "unverified";
  if (verified.status !== "refunded" && verified.status !== "reversed") return "not_taken_back";
  const escrow = await db.query.escrows.findFirst({ where: eq(escrows.paymentId, payment.id) });
  const consultation = await db.query.consultations.findFirst({
    where: eq(consultations.id, payment.consultationId),
    columns: { title: true },
  });
  const difference: Difference = {
    kind: "charged_back",
    subject: "payment",
    reference: txRef,
    consultationId: payment.consultationId,
    ours: escrow ? { says: "escrow_status", status: escrow.status } : { says: "no_escrow", status: payment.status },
    theirs: { says: "provider_status", status: verified.providerStatus },
    oursSantim: payment.amountSantim,
    theirsSantim: 0,
  };
  // What the provider could take back is what our refunds had not already given back (a dispute's part).
  const leftSantim = payment.amountSantim - (await refundedOf(db, payment.id));
  const refundUnderWay = await db.query.refunds.findFirst({
    where: and(eq(refunds.paymentId, payment.id), eq(refunds.status, "pending")),
    columns: { id: true },
  });
  if (!escrow || !(TAKEABLE as readonly string[]).includes(escrow.status) || leftSantim <= 0 || refundUnderWay) {
    if (escrow?.status === "charged_back") return "already_charged_back";
    // Already refunded by us (or being refunded), or a late payment: the money may have gone twice; an admin must look.
    await db.batch([differenceStatement(db, difference, null, now)]);
    return "noted";
  }
  const released = escrow.status === "released";
  const changeId = crypto.randomUUID();
  const changedByThisCall = and(eq(escrows.consultationId, escrow.consultationId), eq(escrows.lastChangeId, changeId));
  const onlyIfChanged = sql`EXISTS (SELECT 1 FROM ${escrows} WHERE ${changedByThisCall})`;
  const values = { amount: birrText(leftSantim), title: consultation?.title ?? "" };
  const told = [
    await tidingsFor(
      db,
      payment.patientId,
      { kind: "payment_charged_back", consultationId: payment.consultationId, link: consultationLink("patient", payment.consultationId) },
      (t, to) =>
        moneyEmail(t, to, "chargedBackPatient", values, `${config.siteOrigin}${consultationLink("patient", payment.consultationId)}`),
    ),
    await tidingsFor(
      db,
      escrow.doctorId,
      { kind: "payment_charged_back", consultationId: payment.consultationId, link: "/doctor/earnings" },
      (t, to) =>
        moneyEmail(t, to, released ? "chargedBackDoctorReleased" : "chargedBackDoctorHeld", values, `${config.siteOrigin}/doctor/earnings`),
    ),
  ];
  const tidings = tidingsStatements(db, told, now, onlyIfChanged);
  await db.batch([
    escrowMove(db, {
      from: escrow.status,
      to: "charged_back",
      where: eq(escrows.consultationId, escrow.consultationId),
      set: { releasedAt: null, lastChangeId: changeId },
      now,
    }),
    ...ledgerEntryStatements(
      db,
      chargeReversed({
        txRef,
        paymentId: payment.id,
        consultationId: payment.consultationId,
        amountSantim: leftSantim,
        released: released ? { doctorId: escrow.doctorId } : null,
      }),
      now,
      onlyIfChanged,
    ),
    auditIfChanged(db, escrows, changedByThisCall, {
      action: "escrow.charged_back",
      actorId: null,
      targetType: "consultation",
      targetId: escrows.consultationId,
      ipAddress: null,
      details: sql<string>`json_object('txRef', ${txRef}, 'from', ${escrow.status}, 'providerStatus', ${verified.providerStatus}, 'amountSantim', ${escrows.amountSantim})`,
      now,
    }),
    differenceStatement(db, difference, null, now, onlyIfChanged),
    ...tidings.statements,
  ]);
  const after = await db.query.escrows.findFirst({
    where: eq(escrows.consultationId, escrow.consultationId),
    columns: { lastChangeId: true },
  });
  if (after?.lastChangeId !== changeId) return "already_charged_back";
  await deliverTidings(db, config, tidings);
  await tellTimelineMoved(env, payment.consultationId);
  return "charged_back";
}
