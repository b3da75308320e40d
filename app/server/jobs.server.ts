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

/** One named step of the job: its part of the report. */
interface HousekeepingStep {
  name: string;
  run: () => Promise<Partial<HousekeepingReport>>;
}

/** Some steps threw: the others ran. `report` holds what the steps that ran said. */
export class HousekeepingFailed extends AggregateError {
  constructor(
    readonly steps: string[],
    errors: unknown[],
    readonly report: Partial<HousekeepingReport>,
  ) {
    super(errors, `Housekeeping steps failed: ${steps.join(", ")}`);
    this.name = "HousekeepingFailed";
  }
}

/**
 * Every step, then, if any threw, HousekeepingFailed naming them: the cron invocation is marked failed,
 * and the tests that read the report of a run that went well read it as before. A step that throws is
 * logged and the next one runs: each re-reads what is due, so none needs an earlier one to have worked
 * (without this run's releases, the payout run pays what was released before; the next run catches up).
 */
export async function runHousekeeping(env: Env, now: Date): Promise<HousekeepingReport> {
  const report: Partial<HousekeepingReport> = {};
  const failed: string[] = [];
  const errors: unknown[] = [];
  for (const step of housekeepingSteps(env, now)) {
    try {
      Object.assign(report, await step.run());
    } catch (error) {
      console.error(JSON.stringify({ event: "housekeeping_step_failed", step: step.name, error: String(error) }));
      failed.push(step.name);
      errors.push(error);
    }
  }
  if (failed.length > 0) throw new HousekeepingFailed(failed, errors, report);
  // Every step ran and each set its fields.
  return report as HousekeepingReport;
}

/** The steps in order: money found or moved before the payout run, queued mail and messages last. */
function housekeepingSteps(env: Env, now: Date): HousekeepingStep[] {
  const db = createDatabase(env.DB);
  const config = loadConfig(env);
  const ago = (ms: number) => new Date(now.getTime() - ms);
  return [
    // Belt and braces for the rooms' alarms: a payment window that closed unnoticed is closed here.
    {
      name: "expirePayments",
      run: async () => {
        let paymentsExpired = 0;
        for (const consultationId of await overduePayments(db, now)) {
          if ((await expirePayment(env, consultationId, now)).kind === "expired") paymentsExpired += 1;
        }
        return { paymentsExpired };
      },
    },
    {
      name: "deleteDrafts",
      run: async () => {
        const drafts = await findAbandonedDrafts(db, ago(DRAFT_LIFETIME_MS));
        // Objects first, in the same step, so their failure keeps the rows: a draft row without its
        // objects is harmless, objects without a row would be orphans.
        const storageKeys = drafts.flatMap((draft) => draft.storageKeys);
        for (let start = 0; start < storageKeys.length; start += 1000) {
          await env.FILES.delete(storageKeys.slice(start, start + 1000));
        }
        const draftsDeleted = await deleteDrafts(
          db,
          drafts.map((draft) => draft.id),
        );
        return { draftsDeleted, filesDeleted: storageKeys.length };
      },
    },
    { name: "endLapsedSessions", run: async () => ({ sessionsDeleted: await endLapsedSessions({ db, cloudflare: { env } }, now) }) },
    {
      name: "forgetConnections",
      run: async () => ({ connectionsForgotten: await deleteConnectionsOpenedBefore(db, ago(SESSION_ABSOLUTE_LIFETIME_MS)) }),
    },
    {
      name: "deleteExpiredLinks",
      run: async () => {
        const links = await db.delete(authTokens).where(lt(authTokens.expiresAt, now)).returning({ id: authTokens.id });
        return { linksDeleted: links.length };
      },
    },
    {
      name: "deleteRateLimitHits",
      run: async () => {
        const hits = await db
          .delete(rateLimitHits)
          .where(lt(rateLimitHits.hitAt, ago(RATE_LIMIT_HIT_RETENTION_MS)))
          .returning({ id: rateLimitHits.id });
        return { rateLimitHitsDeleted: hits.length };
      },
    },
    { name: "releaseStrandedApprovals", run: async () => ({ approvalsReleased: await releaseStrandedApprovals(db, now) }) },
    { name: "reverifyOpenPayments", run: async () => ({ payments: await reverifyOpenPayments(env, config, now) }) },
    {
      name: "releaseDueEscrows",
      run: async () => ({
        escrowsReleased: await releaseDueEscrows(db, now, { onReleased: (consultationId) => tellTimelineMoved(env, consultationId) }),
      }),
    },
    { name: "sendStrandedEscrowsToReview", run: async () => ({ escrowsToReview: await sendStrandedEscrowsToReview(db, now) }) },
    { name: "moveRefundsOn", run: async () => ({ refunds: await moveRefundsOn(env, config, now) }) },
    // A payout in flight is asked about first; the run refuses a second one while it is in flight anyway.
    { name: "movePayoutsOn", run: async () => ({ payouts: await movePayoutsOn(env, config, now) }) },
    { name: "runPayouts", run: async () => ({ payoutRun: await runPayouts(env, config, now, "schedule") }) },
    { name: "reconcileIfDue", run: async () => ({ reconciliation: await reconcileIfDue(env, config, now) }) },
    { name: "remindNewPhotos", run: async () => ({ newPhotosReminded: await remindNewPhotos(db, config.siteOrigin, now) }) },
    { name: "releaseEndedReservations", run: async () => ({ reservationsReleased: await releaseEndedReservations(env) }) },
    { name: "purgeDueRecords", run: async () => ({ recordsPurged: await purgeDueRecords(env, db, now) }) },
    // Whatever a request (or a step above) queued and did not deliver (a crash, a provider outage) goes out now.
    { name: "deliverDueMail", run: async () => ({ mail: await deliverDueMail(db, config, now) }) },
    { name: "deliverDueTelegram", run: async () => ({ telegram: await deliverDueTelegram(db, config, now) }) },
  ];
}
