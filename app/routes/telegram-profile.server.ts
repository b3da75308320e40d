// The Telegram page of a profile, its server half (patient.profile_.telegram.tsx and
// doctor.profile_.telegram.tsx): link through the bot's deep link, unlink, and for doctors, whether every
// new request is sent too.
import { redirect } from "@remix-run/cloudflare";

import { TELEGRAM_PROFILE_INTENTS } from "~/domain/telegram";
import type { Translate } from "~/i18n.server";
import type { Database } from "~/server/db/client.server";
import type { AppConfig, TelegramBotConfig } from "~/server/env.server";
import { createTelegramLinkToken, setWantsNewRequests, unlinkTelegram } from "~/server/telegram/links.server";
import { redirectWithToast } from "~/server/toast.server";

/** Where the person's phone opens the bot: t.me, or the stand-in's chat page outside production. */
function telegramDeepLink(bot: TelegramBotConfig, token: string) {
  return bot.standIn ? `/dev/telegram/start?start=${token}` : `https://t.me/${bot.username}?start=${token}`;
}

/** Link: a fresh token and off to the bot. Unlink, or a doctor's choice: saved, back with a toast. */
export async function telegramProfileAction(
  db: Database,
  config: AppConfig,
  t: Translate,
  user: { userId: string; role: "patient" | "doctor" },
  form: FormData,
  backTo: string,
) {
  const refuse = (status: number, message: string) =>
    new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!config.telegram) throw refuse(404, t("telegram.profile.unavailable"));
  const intent = form.get("intent");
  if (intent === TELEGRAM_PROFILE_INTENTS.link)
    return redirect(telegramDeepLink(config.telegram, await createTelegramLinkToken(db, user.userId, new Date())));
  if (intent === TELEGRAM_PROFILE_INTENTS.unlink) {
    await unlinkTelegram(db, user.userId);
    return redirectWithToast(backTo, { kind: "success", title: "telegram.profile.unlinkedToast" }, config);
  }
  if (intent === TELEGRAM_PROFILE_INTENTS.newRequests && user.role === "doctor") {
    const wants = form.get("wants");
    if (wants !== "yes" && wants !== "no") throw refuse(400, t("telegram.profile.errors.chooseYesOrNo"));
    await setWantsNewRequests(db, user.userId, wants === "yes");
    return redirectWithToast(backTo, { kind: "success", title: "telegram.profile.newRequests.savedToast" }, config);
  }
  throw refuse(400, t("telegram.profile.errors.unknownRequest"));
}
