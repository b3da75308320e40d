// The Telegram part of a profile (patients and doctors), worded here (the page ships none of its texts):
// a summary line for the profile, and the page's panels to link, unlink, and for doctors, choose whether
// every new request is sent too. The forms' answers are the pages' (app/routes/telegram-profile.server.ts).
import type { TFunction } from "i18next";

import { formatDay } from "~/domain/dates";
import type { Language } from "~/domain/languages";
import { TELEGRAM_PROFILE_INTENTS } from "~/domain/telegram";
import type { WordedPanelProps } from "~/domain/views/panel-words";
import type { Database } from "~/server/db/client.server";
import type { AppConfig } from "~/server/env.server";
import { telegramLinkOf } from "~/server/telegram/links.server";

type Translate = TFunction<"common">;

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
        form: { intent: TELEGRAM_PROFILE_INTENTS.link, fields: [], submit: t("telegram.profile.link") },
      },
    ];
  const panels: WordedPanelProps[] = [
    {
      id: "telegram",
      title,
      lines: [intro, t("telegram.profile.linked", { date: formatDay(link.linkedAt, language) }), t("telegram.profile.stopHint")],
      form: { intent: TELEGRAM_PROFILE_INTENTS.unlink, fields: [], submit: t("telegram.profile.unlink") },
    },
  ];
  if (user.role === "doctor")
    panels.push({
      id: "telegram-new-requests",
      title: t("telegram.profile.newRequests.title"),
      lines: [t("telegram.profile.newRequests.intro")],
      form: {
        intent: TELEGRAM_PROFILE_INTENTS.newRequests,
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
