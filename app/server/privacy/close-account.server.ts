// A patient closes their account (docs/decisions/0037). Refused while a consultation is open or money
// is not settled. Otherwise one D1 batch does it all or nothing: the account is marked closed and its
// email replaced (no one can sign in to it again), name and phone erased, the password, Google link,
// one-time links, Telegram link, notifications and the mail sent before deleted, every consultation
// record dated for its purge, the contact a rating left and the contact-form messages sent from its
// address erased, the confirmation queued to the address it had, and the closing audited. Then every
// session ends (its sockets too), the drafts go with their photos (one not reached goes with the next
// housekeeping run, which takes any draft of a closed account), and the mail goes out.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, isNull, max, ne, type SQL, sql } from "drizzle-orm";

import {
  authTokens,
  consultations,
  contactMessages,
  mailOutbox,
  notifications,
  oauthAccounts,
  passwordCredentials,
  patientFeedback,
  profiles,
  telegramLinks,
  telegramLinkTokens,
  telegramOutbox,
  users,
} from "~/db/schema";
import { PRIVACY_EMAIL, RECORD_RETENTION_YEARS } from "~/domain/constants";
import { OPEN_STATUSES } from "~/domain/consultation-status";
import { formatLongDay } from "~/domain/dates";
import type { Language } from "~/domain/languages";
import { type CloseRefusal, closeRefusal, purgeDateOf } from "~/domain/retention";
import { getTranslatorFor } from "~/i18n.server";
import { auditIfChanged } from "~/server/audit.server";
import { endAllSessions } from "~/server/auth/end-sessions.server";
import type { SessionUser } from "~/server/auth/session.server";
import { clientAddress } from "~/server/client-address.server";
import { deletePatientDrafts, schedulePurgeStatement } from "~/server/consultations/retention.server";
import type { Database } from "~/server/db/client.server";
import { htmlEmail } from "~/server/mail/html-email.server";
import { deliverDueMail, queuedMail } from "~/server/mail/mailer.server";

export type Closing = { ok: true; purgeAfter: Date } | { ok: false; refusal: CloseRefusal | "closed" };

/** A consultation of the patient that is still open: waiting for a doctor, for the payment, or under way. */
const openConsultationOf = (patientId: string) =>
  sql`EXISTS (SELECT 1 FROM consultations c WHERE c.patient_id = ${patientId} AND c.status IN (${sql.join(
    OPEN_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  )}))`;

/**
 * Money of the patient's not yet settled, exactly: a fee held in escrow, disputed or waiting for an
 * admin; a refund still on its way, or one the provider failed that no later refund of that payment
 * (an admin's retry, or one made outside it) has replaced; or a payment an admin must still look at,
 * unless its money has gone back (a late payment refunded is settled, though it once awaited an admin).
 */
const unsettledMoneyOf = (patientId: string) => sql`(
  EXISTS (SELECT 1 FROM escrows e JOIN consultations c ON c.id = e.consultation_id
          WHERE c.patient_id = ${patientId} AND e.status IN ('held', 'disputed', 'in_review'))
  OR EXISTS (SELECT 1 FROM disputes d WHERE d.patient_id = ${patientId} AND d.status = 'open')
  OR EXISTS (SELECT 1 FROM refunds r JOIN payments p ON p.id = r.payment_id
             WHERE p.patient_id = ${patientId}
               AND (r.status = 'pending'
                    OR (r.status = 'failed' AND p.refunded_at IS NULL
                        AND NOT EXISTS (SELECT 1 FROM refunds later WHERE later.payment_id = r.payment_id AND later.created_at > r.created_at))))
  OR EXISTS (SELECT 1 FROM payments p WHERE p.patient_id = ${patientId} AND p.needs_admin_review = 1 AND p.refunded_at IS NULL
             AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.payment_id = p.id AND r.status = 'succeeded')))`;

/** Why the patient may not close their account now (null: they may). */
export async function closingRefusal(db: Database, patientId: string) {
  const [facts] = await db
    .select({
      openConsultations: sql<number>`${openConsultationOf(patientId)}`.mapWith(Number),
      unsettledMoney: sql<number>`${unsettledMoneyOf(patientId)}`.mapWith(Number),
    })
    .from(users)
    .where(eq(users.id, patientId));
  return facts ? closeRefusal(facts) : null;
}

/** When the patient's records would be purged, were the account closed at `now`. */
export async function purgeDateFor(db: Database, patientId: string, now: Date) {
  const [last] = await db
    .select({ at: max(sql<number>`coalesce(${consultations.completedAt}, ${consultations.cancelledAt}, ${consultations.createdAt})`) })
    .from(consultations)
    .where(and(eq(consultations.patientId, patientId), sql`${consultations.status} <> 'awaiting_assets'`));
  return purgeDateOf(last?.at ? new Date(Number(last.at)) : null, now);
}

async function closingEmail(to: string, firstName: string, language: Language, purgeAfter: Date, siteOrigin: string) {
  const t = await getTranslatorFor(language);
  const lines = [
    t("email.greeting", { name: firstName }),
    t("privacyRights.email.body"),
    t("privacyRights.email.kept", { date: formatLongDay(purgeAfter, language), count: RECORD_RETENTION_YEARS }),
    t("privacyRights.email.notYou", { email: PRIVACY_EMAIL }),
  ];
  return htmlEmail(to, t("privacyRights.email.subject"), lines, [
    { label: t("privacyRights.email.policy"), href: `${siteOrigin}/privacy` },
  ]);
}

/** Closes `user`'s account now, unless a refusal stands; a second submit finds it closed. */
export async function closeAccount(context: AppLoadContext, request: Request, user: SessionUser, now: Date): Promise<Closing> {
  const { db } = context;
  const refusal = await closingRefusal(db, user.userId);
  if (refusal) return { ok: false, refusal };
  const profile = await db.query.profiles.findFirst({ where: eq(profiles.userId, user.userId) });
  const purgeAfter = await purgeDateFor(db, user.userId, now);
  const closedEmail = `closed-${crypto.randomUUID()}@closed.invalid`;
  // Everything below is written only if this call closed the account: the conditional UPDATE first.
  const closedNow: SQL = sql`EXISTS (SELECT 1 FROM users WHERE id = ${user.userId} AND email = ${closedEmail})`;
  const mine = <T extends SQL | undefined>(condition: T) => and(condition, closedNow);
  const language = profile?.preferredLanguage ?? user.preferredLanguage ?? "en";
  const mail = queuedMail(
    db,
    await closingEmail(user.email, profile?.firstName ?? "", language, purgeAfter, context.config.siteOrigin),
    now,
    closedNow,
  );
  const [claimed] = await db.batch([
    db
      .update(users)
      .set({ closedAt: now, email: closedEmail, emailConfirmedAt: null, updatedAt: now })
      .where(
        and(
          eq(users.id, user.userId),
          isNull(users.closedAt),
          sql`NOT ${openConsultationOf(user.userId)}`,
          sql`NOT ${unsettledMoneyOf(user.userId)}`,
        ),
      )
      .returning({ id: users.id }),
    db
      .update(profiles)
      .set({ firstName: "", lastName: "", phone: null, updatedAt: now })
      .where(mine(eq(profiles.userId, user.userId))),
    db.delete(passwordCredentials).where(mine(eq(passwordCredentials.userId, user.userId))),
    db.delete(oauthAccounts).where(mine(eq(oauthAccounts.userId, user.userId))),
    db.delete(authTokens).where(mine(eq(authTokens.userId, user.userId))),
    db.delete(telegramLinkTokens).where(mine(eq(telegramLinkTokens.userId, user.userId))),
    db.delete(telegramLinks).where(mine(eq(telegramLinks.userId, user.userId))),
    db.delete(notifications).where(mine(eq(notifications.userId, user.userId))),
    db.delete(telegramOutbox).where(mine(eq(telegramOutbox.userId, user.userId))),
    // The phone or address they left with a rating for us to reach them; the rating stays with the record.
    db
      .update(patientFeedback)
      .set({ allowContact: false, contactMethod: null, contactValue: null })
      .where(mine(eq(patientFeedback.patientId, user.userId))),
    // What they wrote to us through the contact form from this address (their name, address and words).
    db.delete(contactMessages).where(mine(eq(contactMessages.email, user.email))),
    // The mail sent to the address before (greetings by name, consultation news); the confirmation stays until sent.
    db.delete(mailOutbox).where(mine(and(eq(mailOutbox.toEmail, user.email), ne(mailOutbox.id, mail.id)))),
    schedulePurgeStatement(db, user.userId, purgeAfter, closedNow),
    mail.statement,
    auditIfChanged(db, users, and(eq(users.id, user.userId), eq(users.email, closedEmail)), {
      action: "account.closed",
      actorId: user.userId,
      targetType: "user",
      targetId: users.id,
      details: sql<string>`json_object('purgeAfter', ${purgeAfter.toISOString()})`,
      ipAddress: clientAddress(request),
      now,
    }),
  ]);
  if (claimed.length === 0) {
    // Another submit closed it first, or a consultation or payment started in between.
    const again = await closingRefusal(db, user.userId);
    return { ok: false, refusal: again ?? "closed" };
  }
  await endAllSessions(context, user.userId);
  await deletePatientDrafts(db, context.cloudflare.env.FILES, user.userId);
  await deliverDueMail(db, context.config, now, { ids: [mail.id] });
  return { ok: true, purgeAfter };
}
