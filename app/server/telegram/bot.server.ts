// Qoda's Telegram bot through grammY (docs/decisions/0035). Built per use with `botInfo` given, so no
// getMe at startup; outside production its Bot API is the local stand-in, answered in this Worker
// (the same wire format, without a request to itself). The bot knows two commands: /start with a
// deep-link token links the chat, /stop unlinks it; its answer rides on the webhook's reply.
import { Bot, type Context, webhookCallback } from "grammy/web";

import { isLanguage, type Language } from "~/domain/languages";
import { isDeepLinkPayload } from "~/domain/telegram";
import { getTranslatorFor } from "~/i18n.server";
import type { Database } from "~/server/db/client.server";
import { contactOf } from "~/server/db/profiles.server";
import type { TelegramBotConfig } from "~/server/env.server";
import { redeemTelegramLinkToken, telegramLinkOfChat, unlinkTelegram } from "~/server/telegram/links.server";
import { answerStandInApi } from "~/server/telegram/stand-in-api.server";

export function telegramBot(db: Database, config: TelegramBotConfig) {
  const bot = new Bot(config.token, {
    botInfo: {
      id: Number(config.token.split(":")[0]),
      is_bot: true,
      first_name: "Qoda",
      username: config.username,
      can_join_groups: false,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    },
    client: {
      apiRoot: config.apiRoot,
      // Answers to an update go back in the webhook's reply: one request fewer, and nothing to retry.
      canUseWebhookReply: (method) => method === "sendMessage",
      ...(config.standIn ? { fetch: standInFetch(db, config) } : {}),
    },
  });
  bot.command("start", async (context) => {
    const chatId = String(context.chat.id);
    const payload = context.match.trim();
    const userId = isDeepLinkPayload(payload) ? await redeemTelegramLinkToken(db, payload, chatId, new Date()) : null;
    const t = await getTranslatorFor(userId ? await languageOf(db, userId) : chatLanguage(context));
    await context.reply(userId ? t("telegram.bot.linked") : t("telegram.bot.notLinked"));
  });
  bot.command("stop", async (context) => {
    const link = await telegramLinkOfChat(db, String(context.chat.id));
    const t = await getTranslatorFor(link ? await languageOf(db, link.userId) : chatLanguage(context));
    if (link) await unlinkTelegram(db, link.userId);
    await context.reply(link ? t("telegram.bot.unlinked") : t("telegram.bot.notLinked"));
  });
  return bot;
}

/** The webhook: Telegram's updates, refused (401) without the secret token set with setWebhook. */
export function telegramWebhook(db: Database, config: TelegramBotConfig) {
  return webhookCallback(telegramBot(db, config), "cloudflare-mod", { secretToken: config.webhookSecret });
}

async function languageOf(db: Database, userId: string): Promise<Language> {
  return (await contactOf(db, userId))?.language ?? "en";
}

/** Before a chat is linked, the language its Telegram app is set to. */
function chatLanguage(context: Context): Language {
  const code = context.from?.language_code?.slice(0, 2);
  return isLanguage(code) ? code : "en";
}

function standInFetch(db: Database, config: TelegramBotConfig): typeof fetch {
  return async (input, init) => answerStandInApi(db, config, new Request(input, init));
}
