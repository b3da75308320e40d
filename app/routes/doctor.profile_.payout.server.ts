// The doctor's payout details page (part of their profile), its server half: a bank or wallet from the
// provider's own list, the name on the account and its number (digits, of the length that bank uses). A
// change is audited and emailed to the doctor in the same batch, so someone else's change to where the
// money goes cannot pass unseen. A change (not the first setting) needs the doctor's password again, and
// payouts to the new account wait 48 hours: a stolen session alone can no longer send the next payout
// elsewhere before the doctor reads the email.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { and, eq, sql } from "drizzle-orm";
import type { TFunction } from "i18next";

import { doctorPayoutAccounts } from "~/db/schema";
import { birrText, CONSULTATION_FEE_SANTIM, PLATFORM_FEE_PERCENT } from "~/domain/money";
import { MIN_PAYOUT_SANTIM, PAYOUT_ACCOUNT_INTENT, PayoutAccountSchema } from "~/domain/payouts";
import type { WordedPanelProps } from "~/domain/views/panel-words";
import { parseForm } from "~/forms";
import { translatedFieldErrors } from "~/forms.server";
import { detectLanguage, getTranslator } from "~/i18n.server";
import { auditStatement } from "~/server/audit.server";
import { passwordMatches } from "~/server/auth/accounts.server";
import type { SessionUser } from "~/server/auth/session.server";
import { moneyEmail } from "~/server/mail/money-emails.server";
import { accountAndPassword, PAYOUT_DETAILS, payoutHoldLine } from "~/server/money/payout-account.server";
import type { Bank } from "~/server/payments/payment-provider.server";
import { paymentProvider } from "~/server/payments/provider.server";
import { deliverTidings, tidingsFor, tidingsStatements } from "~/server/tidings.server";
import { redirectWithToast } from "~/server/toast.server";

interface FormState {
  values: Record<string, string>;
  errors: Record<string, string>;
}

/**
 * The payout panel: where the money goes now (and when payouts to it start, after a change), the terms,
 * and the form (with the provider's banks; a change asks for the password, which a doctor without one
 * must first set on their profile).
 */
export async function payoutAccountPanel(
  { context, request }: Pick<ActionFunctionArgs, "context" | "request">,
  t: TFunction,
  doctorId: string,
  formState?: FormState,
): Promise<WordedPanelProps> {
  const [{ account, hasPassword }, banks, language] = await Promise.all([
    accountAndPassword(context.db, doctorId),
    paymentProvider(context.config, context.cloudflare.env, context.config.siteOrigin).banks(),
    detectLanguage(request),
  ]);
  const held = payoutHoldLine(t, language, account, new Date());
  const lines = [
    account
      ? t("payouts.current", { bank: account.bankName, last4: account.accountNumber.slice(-4), name: account.accountName })
      : t("payouts.none"),
    ...(held ? [held] : []),
    t("payouts.terms", { percent: PLATFORM_FEE_PERCENT, fee: birrText(CONSULTATION_FEE_SANTIM), minimum: birrText(MIN_PAYOUT_SANTIM) }),
    ...(account ? [t("payouts.changeTerms")] : []),
  ];
  if (!banks) return { id: "payout-account", title: t("payouts.title"), lines: [...lines, t("payouts.banksUnavailable")] };
  if (account && !hasPassword) return { id: "payout-account", title: t("payouts.title"), lines: [...lines, t("payouts.noPassword")] };
  const value = (name: "bankCode" | "accountName" | "accountNumber") => formState?.values[name] ?? (account ? account[name] : "");
  return {
    id: "payout-account",
    title: t("payouts.title"),
    lines,
    form: {
      action: PAYOUT_DETAILS,
      intent: PAYOUT_ACCOUNT_INTENT,
      submit: t("payouts.save"),
      fields: [
        {
          name: "bankCode",
          label: t("payouts.bank"),
          kind: "select",
          options: [
            { value: "", label: t("payouts.choose") },
            ...banks.map((bank) => ({
              value: bank.code,
              label: bank.isMobileMoney ? t("payouts.wallet", { name: bank.name }) : bank.name,
            })),
          ],
          value: value("bankCode"),
          error: formState?.errors.bankCode,
        },
        {
          name: "accountName",
          label: t("payouts.accountName"),
          kind: "text",
          value: value("accountName"),
          error: formState?.errors.accountName,
        },
        {
          name: "accountNumber",
          label: t("payouts.accountNumber"),
          kind: "text",
          value: value("accountNumber"),
          error: formState?.errors.accountNumber,
        },
        // A change needs the password again (never sent back in the form).
        ...(account
          ? [{ name: "password", label: t("payouts.password"), kind: "password" as const, error: formState?.errors.password }]
          : []),
      ],
    },
  };
}

/** Where the bank's own rules fail the details (a bank not on the list, a number of the wrong length). */
function bankError(t: TFunction, bank: Bank | undefined, accountNumber: string): Partial<Record<"bankCode" | "accountNumber", string>> {
  if (!bank) return { bankCode: t("payouts.errors.bankUnknown") };
  if (bank.accountNumberLength && accountNumber.length !== bank.accountNumberLength)
    return { accountNumber: t("payouts.errors.numberLength", { bank: bank.name, length: bank.accountNumberLength }) };
  return {};
}

/**
 * Saves the doctor's payout details: the form again with its errors in their words, or (thrown) the
 * redirect to the profile with a toast. Audited, and the doctor emailed, in the batch of the change.
 */
export async function savePayoutAccountAction(
  args: ActionFunctionArgs,
  doctor: SessionUser,
  formData: FormData,
): Promise<WordedPanelProps> {
  const { context, request } = args;
  const t = await getTranslator(request);
  const values = Object.fromEntries(["bankCode", "accountName", "accountNumber"].map((name) => [name, String(formData.get(name) ?? "")]));
  const submission = parseForm(formData, PayoutAccountSchema);
  if (submission.status !== "success") {
    return payoutAccountPanel(args, t, doctor.userId, { values, errors: translatedFieldErrors(t, submission) });
  }
  const banks = await paymentProvider(context.config, context.cloudflare.env, context.config.siteOrigin).banks();
  if (!banks) return payoutAccountPanel(args, t, doctor.userId);
  const { bankCode, accountName, accountNumber } = submission.value;
  const bank = banks.find((candidate) => candidate.code === bankCode);
  const errors = bankError(t, bank, accountNumber);
  if (!bank || Object.keys(errors).length > 0) return payoutAccountPanel(args, t, doctor.userId, { values, errors });
  const { account, hasPassword } = await accountAndPassword(context.db, doctor.userId);
  if (account) {
    const same = account.bankCode === bankCode && account.accountName === accountName && account.accountNumber === accountNumber;
    if (same) throw await redirectWithToast(PAYOUT_DETAILS, { kind: "success", title: "payouts.unchanged" }, context.config);
    // A change of where the money goes: the session alone is not enough (the panel says why without a password).
    if (!hasPassword) return payoutAccountPanel(args, t, doctor.userId, { values, errors: {} });
    const password = String(formData.get("password") ?? "");
    if (!password)
      return payoutAccountPanel(args, t, doctor.userId, { values, errors: { password: t("payouts.errors.passwordRequired") } });
    if (!(await passwordMatches(context.db, doctor.userId, password)))
      return payoutAccountPanel(args, t, doctor.userId, { values, errors: { password: t("payouts.errors.passwordWrong") } });
  }

  const now = new Date();
  const told = await tidingsFor(
    context.db,
    doctor.userId,
    { kind: "payout_account_changed", consultationId: null, link: PAYOUT_DETAILS },
    (t, to) =>
      moneyEmail(
        t,
        to,
        "payoutAccountChanged",
        { bank: bank.name, last4: accountNumber.slice(-4), name: accountName },
        `${context.config.siteOrigin}${PAYOUT_DETAILS}`,
      ),
  );
  const row = { bankCode, bankName: bank.name, accountName, accountNumber, updatedAt: now };
  // The news only with the row as this call wrote it (a first setting that another beat writes none).
  const written = sql`EXISTS (SELECT 1 FROM ${doctorPayoutAccounts} WHERE ${and(
    eq(doctorPayoutAccounts.doctorId, doctor.userId),
    eq(doctorPayoutAccounts.accountNumber, accountNumber),
    eq(doctorPayoutAccounts.updatedAt, now),
  )})`;
  const tidings = tidingsStatements(context.db, [told], now, written);
  const insert = context.db.insert(doctorPayoutAccounts).values({ doctorId: doctor.userId, ...row, createdAt: now });
  await context.db.batch([
    // A first setting never overwrites details set meanwhile: only a change confirmed by the password does.
    account ? insert.onConflictDoUpdate({ target: doctorPayoutAccounts.doctorId, set: row }) : insert.onConflictDoNothing(),
    auditStatement(context.db, request, {
      action: "payout_account.changed",
      actorId: doctor.userId,
      targetType: "user",
      targetId: doctor.userId,
      details: { bank: bank.name, accountEnding: accountNumber.slice(-4) },
    }),
    ...tidings.statements,
  ]);
  await deliverTidings(context.db, context.config, tidings, context);
  throw await redirectWithToast(PAYOUT_DETAILS, { kind: "success", title: "payouts.saved" }, context.config);
}
