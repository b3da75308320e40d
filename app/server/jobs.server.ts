// Scheduled housekeeping, run by the cron trigger. Safe to run twice: each step only removes or sends
// what is still due at the time it runs (and a message is claimed before it is sent).
import { lt } from "drizzle-orm";

import { authTokens, rateLimitHits } from "~/db/schema";
import { DRAFT_LIFETIME_MS, SESSION_ABSOLUTE_LIFETIME_MS } from "~/domain/constants";
import { endLapsedSessions } from "~/server/auth/end-sessions.server";
import { deleteDrafts } from "~/server/consultations/drafts.server";
import { expirePayment, overduePayments } from "~/server/consultations/expire-payment.server";
import { remindNewPhotos } from "~/server/consultations/new-photos-reminders.server";
import { purgeDueRecords } from "~/server/consultations/retention.server";
import { createDatabase } from "~/server/db/client.server";
import { findAbandonedDrafts } from "~/server/db/consultations.server";
import { deleteConnectionsOpenedBefore } from "~/server/db/room-connections.server";
import { loadConfig } from "~/server/env.server";
import { deliverDueMail, type DeliveryReport } from "~/server/mail/mailer.server";
import { releaseDueEscrows, sendStrandedEscrowsToReview } from "~/server/money/escrow.server";
import { movePayoutsOn, type PayoutRunReport, runPayouts } from "~/server/money/payouts.server";
import { reconcileIfDue, type ReconciliationReport } from "~/server/money/reconciliation.server";
import { moveRefundsOn } from "~/server/money/refunds.server";
import { reverifyOpenPayments, type ReverifyReport } from "~/server/payments/reverify.server";
import { releaseStrandedApprovals } from "~/server/registrations/review.server";
import { releaseEndedReservations, tellTimelineMoved } from "~/server/rooms.server";
import { deliverDueTelegram, type TelegramDeliveryReport } from "~/server/telegram/outbox.server";

export interface HousekeepingReport {
  paymentsExpired: number;
  draftsDeleted: number;
  filesDeleted: number;
  sessionsDeleted: number;
  connectionsForgotten: number;
  linksDeleted: number;
  rateLimitHitsDeleted: number;
  approvalsReleased: number;
  /** Escrow holds released to their doctors: 72 hours after the end with no dispute. */
  escrowsReleased: number;
  /** Paid consultations whose doctor cannot finish them, sent to an admin (who may cancel and refund). */
  escrowsToReview: number;
  /** Refunds started for late payments, and pending ones asked about or asked for again. */
  refunds: Awaited<ReturnType<typeof moveRefundsOn>>;
  /** Payouts in flight asked about; the weekly run for doctors not paid in the last week. */
  payouts: Awaited<ReturnType<typeof movePayoutsOn>>;
  payoutRun: PayoutRunReport;
  /** Our books against the provider's, once a day; null when the last run is less than a day old. */
  reconciliation: ReconciliationReport | null;
  /** Open payment attempts asked about again (their webhook may never have come). */
  payments: ReverifyReport;
  /** Patients reminded, on the day their doctor asked, to send new photos. */
  newPhotosReminded: number;
  /** Follow-ups handed to every doctor when their time with their own doctor ran out (the lobby's alarm missed it). */
  reservationsReleased: number;
  /** Consultation records of closed accounts whose retention ended, purged (ADR 0037). */
  recordsPurged: number;
  mail: DeliveryReport;
  /** Telegram messages sent or retried; chats unlinked because they blocked the bot. */
  telegram: TelegramDeliveryReport;
}

/** Longer than any rate limit's window, so no attempt that still counts is removed. */
const RATE_LIMIT_HIT_RETENTION_MS = 24 * 60 * 60_000;

export async function runHousekeeping(env: Env, now: Date): Promise<HousekeepingReport> {
  const db = createDatabase(env.DB);
  const config = loadConfig(env);
  const files = env.FILES;
  // Belt and braces for the rooms' alarms: a payment window that closed unnoticed is closed here.
  let paymentsExpired = 0;
  for (const consultationId of await overduePayments(db, now)) {
    if ((await expirePayment(env, consultationId, now)).kind === "expired") paymentsExpired += 1;
  }
  const drafts = await findAbandonedDrafts(db, new Date(now.getTime() - DRAFT_LIFETIME_MS));
  // Objects first: a draft row without its objects is harmless, objects without a row would be orphans.
  const storageKeys = drafts.flatMap((draft) => draft.storageKeys);
  for (let start = 0; start < storageKeys.length; start += 1000) {
    await files.delete(storageKeys.slice(start, start + 1000));
  }
  const draftsDeleted = await deleteDrafts(
    db,
    drafts.map((draft) => draft.id),
  );
  const sessionsEnded = await endLapsedSessions({ db, cloudflare: { env } }, now);
  const connectionsForgotten = await deleteConnectionsOpenedBefore(db, new Date(now.getTime() - SESSION_ABSOLUTE_LIFETIME_MS));
  const links = await db.delete(authTokens).where(lt(authTokens.expiresAt, now)).returning({ id: authTokens.id });
  const hits = await db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.hitAt, new Date(now.getTime() - RATE_LIMIT_HIT_RETENTION_MS)))
    .returning({ id: rateLimitHits.id });
  return {
    paymentsExpired,
    draftsDeleted,
    filesDeleted: storageKeys.length,
    sessionsDeleted: sessionsEnded,
    connectionsForgotten,
    linksDeleted: links.length,
    rateLimitHitsDeleted: hits.length,
    approvalsReleased: await releaseStrandedApprovals(db, now),
    payments: await reverifyOpenPayments(env, config, now),
    escrowsReleased: await releaseDueEscrows(db, now, { onReleased: (consultationId) => tellTimelineMoved(env, consultationId) }),
    escrowsToReview: await sendStrandedEscrowsToReview(db, now),
    refunds: await moveRefundsOn(env, config, now),
    payouts: await movePayoutsOn(env, config, now),
    payoutRun: await runPayouts(env, config, now, "schedule"),
    reconciliation: await reconcileIfDue(env, config, now),
    newPhotosReminded: await remindNewPhotos(db, config.siteOrigin, now),
    reservationsReleased: await releaseEndedReservations(env),
    recordsPurged: await purgeDueRecords(env, db, now),
    // Whatever a request queued and did not deliver (a crash, a provider outage) goes out now.
    mail: await deliverDueMail(db, config, now),
    telegram: await deliverDueTelegram(db, config, now),
  };
}
