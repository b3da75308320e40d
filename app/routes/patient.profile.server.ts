// The patient profile's "Your data" section: the download of their data and the closing of their
// account, worded here in the reader's language (the page ships none of these texts), and the
// closing form's answer.
import { type AppLoadContext, data } from "@remix-run/cloudflare";

import { PRIVACY_EMAIL, RECORD_RETENTION_YEARS } from "~/domain/constants";
import { formatLongDay } from "~/domain/dates";
import type { Language } from "~/domain/languages";
import { CLOSE_ACCOUNT_INTENT, CLOSE_ACCOUNT_WORDS, type CloseRefusal, confirmsClosing } from "~/domain/retention";
import { detectLanguage, getTranslator } from "~/i18n.server";
import { clearSessionCookie, type SessionUser } from "~/server/auth/session.server";
import { closeAccount, closingRefusal, purgeDateFor } from "~/server/privacy/close-account.server";
import { redirectDocumentWithToast } from "~/server/toast.server";

type Translate = Awaited<ReturnType<typeof getTranslator>>;

const EXPORT_PATH = "/patient/profile/export";

const refusalText = (t: Translate, refusal: CloseRefusal | "closed", word: string) =>
  ({
    not_confirmed: t("privacyRights.refusals.notConfirmed", { word }),
    active_consultation: t("privacyRights.refusals.activeConsultation"),
    money_held: t("privacyRights.refusals.moneyHeld"),
    closed: t("privacyRights.refusals.closed"),
  })[refusal];

/** The section's words, with the date the records would be purged were the account closed today. */
export async function privacySection(context: AppLoadContext, t: Translate, language: Language, user: SessionUser) {
  const now = new Date();
  const [purgeAfter, refusal] = await Promise.all([purgeDateFor(context.db, user.userId, now), closingRefusal(context.db, user.userId)]);
  const word = CLOSE_ACCOUNT_WORDS[language];
  return {
    intent: CLOSE_ACCOUNT_INTENT,
    exportHref: EXPORT_PATH,
    title: t("privacyRights.title"),
    exportTitle: t("privacyRights.exportTitle"),
    exportBody: t("privacyRights.exportBody"),
    exportLink: t("privacyRights.exportLink"),
    closeTitle: t("privacyRights.closeTitle"),
    erasedNow: t("privacyRights.erasedNow"),
    kept: t("privacyRights.kept", { count: RECORD_RETENTION_YEARS, date: formatLongDay(purgeAfter, language) }),
    photosHint: t("privacyRights.photosHint"),
    policyLink: t("privacyRights.policyLink"),
    word,
    confirmLabel: t("privacyRights.confirmLabel", { word }),
    submit: t("privacyRights.submit"),
    busy: t("forms.busy"),
    /** Shown before anyone tries: why closing would be refused now. */
    refusalNow: refusal ? refusalText(t, refusal, word) : null,
  };
}

/** The closing form: refused with why (the typed word kept), or closed, signed out and sent home. */
export async function handleCloseAccount(context: AppLoadContext, request: Request, user: SessionUser, formData: FormData) {
  const [t, language] = await Promise.all([getTranslator(request), detectLanguage(request)]);
  const word = CLOSE_ACCOUNT_WORDS[language];
  const typed = formData.get("confirm");
  const refuse = (refusal: CloseRefusal | "closed", status: number) =>
    data(
      { intent: CLOSE_ACCOUNT_INTENT, error: refusalText(t, refusal, word), typed: typeof typed === "string" ? typed.slice(0, 40) : "" },
      { status },
    );
  if (!confirmsClosing(typed)) return refuse("not_confirmed", 400);
  const closing = await closeAccount(context, request, user, new Date());
  if (!closing.ok) return refuse(closing.refusal, 409);
  return redirectDocumentWithToast(
    "/",
    { kind: "success", title: "privacyRights.closedTitle", description: "privacyRights.closedBody", values: { email: PRIVACY_EMAIL } },
    context.config,
    { headers: { "Set-Cookie": await clearSessionCookie() } },
  );
}
