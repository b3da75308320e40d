// The Telegram part of a profile (patients and doctors): link through the bot's deep link, unlink, and
// for doctors, whether every new request is sent too. Worded here; the page ships none of its texts.
import { redirect } from "@remix-run/cloudflare";
import type { TFunction } from "i18next";

import { formatDay } from "~/domain/dates";
import type { Language } from "~/domain/languages";
import type { WordedPanelProps } from "~/domain/views/worded-panel";
import type { Database } from "~/server/db/client.server";
import type { AppConfig, TelegramBotConfig } from "~/server/env.server";
import { createTelegramLinkToken, setWantsNewRequests, telegramLinkOf, unlinkTelegram } from "~/server/telegram/links.server";
import { redirectWithToast } from "~/server/toast.server";

type Translate = TFunction<"common">;

const INTENTS = { link: "link-telegram", unlink: "unlink-telegram", newRequests: "telegram-new-requests" } as const;

/** Where the person's phone opens the bot: t.me, or the stand-in's chat page outside production. */
function telegramDeepLink(bot: TelegramBotConfig, token: string) {
  return bot.standIn ? `/dev/telegram/start?start=${token}` : `https://t.me/${bot.username}?start=${token}`;
}

/** The profile's Telegram section (a line and a link to its page), or null where Telegram is off. */
export async function telegramSummary(
  db: Database,
  config: AppConfig,
  t: Translate,
  user: { userId: string; role: "patient" | "doctor" },
  language: Language,
) {
  if (!config.telegram) return null;
  const link = await telegramLinkOf(db, user.userId);
  return {
    id: "telegram",
    title: t("telegram.profile.title"),
    line: link ? t("telegram.profile.linked", { date: formatDay(link.linkedAt, language) }) : t("telegram.profile.summaryNotLinked"),
    change: link ? t("telegram.profile.manage") : t("telegram.profile.link"),
    href: `/${user.role}/profile/telegram`,
  };
}

export async function telegramPanels(
  db: Database,
  config: AppConfig,
  t: Translate,
  user: { userId: string; role: "patient" | "doctor" },
  language: Language,
): Promise<WordedPanelProps[]> {
  const title = t("telegram.profile.title");
  if (!config.telegram) return [{ id: "telegram", title, lines: [t("telegram.profile.unavailable")] }];
  const link = await telegramLinkOf(db, user.userId);
  const intro = t(user.role === "doctor" ? "telegram.profile.introDoctor" : "telegram.profile.introPatient");
  if (!link)
    return [
      {
        id: "telegram",
        title,
        lines: [intro, t("telegram.profile.notLinked")],
        form: { intent: INTENTS.link, fields: [], submit: t("telegram.profile.link") },
      },
    ];
  const panels: WordedPanelProps[] = [
    {
      id: "telegram",
      title,
      lines: [intro, t("telegram.profile.linked", { date: formatDay(link.linkedAt, language) }), t("telegram.profile.stopHint")],
      form: { intent: INTENTS.unlink, fields: [], submit: t("telegram.profile.unlink") },
    },
  ];
  if (user.role === "doctor")
    panels.push({
      id: "telegram-new-requests",
      title: t("telegram.profile.newRequests.title"),
      lines: [t("telegram.profile.newRequests.intro")],
      form: {
        intent: INTENTS.newRequests,
        fields: [
          {
            name: "wants",
            label: t("telegram.profile.newRequests.label"),
            kind: "select",
            value: link.wantsNewRequests ? "yes" : "no",
            options: [
              { value: "yes", label: t("telegram.profile.newRequests.yes") },
              { value: "no", label: t("telegram.profile.newRequests.no") },
            ],
          },
        ],
        submit: t("telegram.profile.newRequests.save"),
      },
    });
  return panels;
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
  if (intent === INTENTS.link)
    return redirect(telegramDeepLink(config.telegram, await createTelegramLinkToken(db, user.userId, new Date())));
  if (intent === INTENTS.unlink) {
    await unlinkTelegram(db, user.userId);
    return redirectWithToast(backTo, { kind: "success", title: "telegram.profile.unlinkedToast" }, config);
  }
  if (intent === INTENTS.newRequests && user.role === "doctor") {
    const wants = form.get("wants");
    if (wants !== "yes" && wants !== "no") throw refuse(400, t("telegram.profile.errors.chooseYesOrNo"));
    await setWantsNewRequests(db, user.userId, wants === "yes");
    return redirectWithToast(backTo, { kind: "success", title: "telegram.profile.newRequests.savedToast" }, config);
  }
  throw refuse(400, t("telegram.profile.errors.unknownRequest"));
}
