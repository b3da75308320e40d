// A doctor's payout details as their pages read them: a bank or wallet, the name on the account and its
// number. Payouts to a changed account wait 48 hours (held while `updatedAt` is that recent and later than
// `createdAt`); the form that sets them is app/routes/doctor.profile_.payout.server.ts.
import { eq } from "drizzle-orm";
import type { TFunction } from "i18next";

import { doctorPayoutAccounts, passwordCredentials } from "~/db/schema";
import { formatMoment } from "~/domain/dates";
import { payoutHoldEndsAt } from "~/domain/payouts";
import type { Database } from "~/server/db/client.server";

/** The page of the doctor's payout details (part of their profile). */
export const PAYOUT_DETAILS = "/doctor/profile/payout";

type PayoutAccount = typeof doctorPayoutAccounts.$inferSelect;

/** "Payouts to your new account start on …", in the reader's language and calendar, while a change is held. */
export function payoutHoldLine(t: TFunction, language: string, account: PayoutAccount | undefined, now: Date): string | null {
  const endsAt = account ? payoutHoldEndsAt(account, now) : null;
  return endsAt ? t("payouts.held", { date: formatMoment(endsAt, language) }) : null;
}

/** The hold line for `doctorId`'s payout account (their earnings page shows it too), or null when none is held. */
export async function payoutHoldLineOf(db: Database, t: TFunction, language: string, doctorId: string, now: Date) {
  const account = await db.query.doctorPayoutAccounts.findFirst({ where: eq(doctorPayoutAccounts.doctorId, doctorId) });
  return payoutHoldLine(t, language, account, now);
}

/** The doctor's payout account and whether they have a password to confirm a change of it with. */
export async function accountAndPassword(db: Database, doctorId: string) {
  const [account, credential] = await Promise.all([
    db.query.doctorPayoutAccounts.findFirst({ where: eq(doctorPayoutAccounts.doctorId, doctorId) }),
    db.query.passwordCredentials.findFirst({ columns: { userId: true }, where: eq(passwordCredentials.userId, doctorId) }),
  ]);
  return { account, hasPassword: credential !== undefined };
}

/** What the doctor's profile says of their payout details: where the money goes now, and the way to change it. */
export async function payoutAccountSummary(db: Database, t: TFunction, doctorId: string) {
  const account = await db.query.doctorPayoutAccounts.findFirst({ where: eq(doctorPayoutAccounts.doctorId, doctorId) });
  return {
    title: t("payouts.title"),
    line: account
      ? t("payouts.current", { bank: account.bankName, last4: account.accountNumber.slice(-4), name: account.accountName })
      : t("payouts.none"),
    change: account ? t("payouts.change") : t("payouts.add"),
    href: PAYOUT_DETAILS,
  };
}
