// The emails about money, in the reader's language: disputes and their outcome, refunds sent, payouts
// paid or failed, and a change of payout details (told to the doctor, in case it was not them).
import type { TFunction } from "i18next";

import type { TextKey } from "~/i18n";
import { wordKey } from "~/i18n.server";

import { htmlEmail } from "./html-email.server";
import type { MailMessage } from "./mailer.server";

type Translate = TFunction<"common">;
type MoneyEmail =
  | "disputeOpened"
  | "disputeAnswered"
  | "disputeResolved"
  | "moneyRefunded"
  | "payoutPaid"
  | "payoutFailed"
  | "payoutAccountChanged"
  | "paidCancelled"
  | "chargedBackPatient"
  | "chargedBackDoctorHeld"
  | "chargedBackDoctorReleased";

/** One money email: a greeting, its body (`bodyKey`, by default `email.<kind>.body`) and one action. */
export function moneyEmail(
  t: Translate,
  to: { email: string; firstName: string },
  kind: MoneyEmail,
  values: Record<string, string>,
  href: string,
  bodyKey?: TextKey,
): MailMessage {
  // Keys chosen at run time: i18next's types cannot follow them, the locale tests check they exist.
  const lines = [t("email.greeting", { name: to.firstName }), wordKey(t, bodyKey ?? `email.${kind}.body`, values)];
  return htmlEmail(to.email, wordKey(t, `email.${kind}.subject`, values), lines, [{ label: wordKey(t, `email.${kind}.action`), href }]);
}
