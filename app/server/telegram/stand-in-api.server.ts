// Development and tests only: a stand-in for Telegram's Bot API, in its wire format (POST
// /bot<token>/<method> with a JSON body, answered {ok, result} or {ok: false, error_code, description}).
// It keeps what it was sent (shown on /dev/outbox), answers 403 for a chat that "blocked the bot", and
// lets a tester press Start on a deep link: it posts the update to the webhook as Telegram would.
import { desc, eq } from "drizzle-orm";

import { telegramStandInBlockedChats, telegramStandInMessages } from "~/db/schema";
import type { Database } from "~/server/db/client.server";
import type { TelegramBotConfig } from "~/server/env.server";

const json = (status: number, body: unknown) => Response.json(body, { status });
const refusal = (status: number, description: string) => json(status, { ok: false, error_code: status, description });

/** One Bot API call, as api.telegram.org would answer it. */
export async function answerStandInApi(db: Database, config: TelegramBotConfig, request: Request): Promise<Response> {
  const match = new URL(request.url).pathname.match(/\/bot([^/]+)\/(\w+)$/);
  if (!match) return refusal(404, "Not Found");
  const [, token, method] = match;
  if (token !== config.token) return refusal(401, "Unauthorized");
  if (method !== "sendMessage") return refusal(404, "Not Found: method not found");
  const body = (await request.json().catch(() => null)) as { chat_id?: unknown; text?: unknown } | null;
  const chatId = String(body?.chat_id ?? "");
  const text = typeof body?.text === "string" ? body.text : "";
  if (!/^-?\d+$/.test(chatId) || text === "") return refusal(400, "Bad Request: chat_id and text are required");
  const [blocked] = await db.select().from(telegramStandInBlockedChats).where(eq(telegramStandInBlockedChats.chatId, chatId));
  if (blocked) return refusal(403, "Forbidden: bot was blocked by the user");
  const now = new Date();
  await db.insert(telegramStandInMessages).values({ chatId, text, createdAt: now });
  return json(200, {
    ok: true,
    result: {
      message_id: now.getTime() % 2 ** 31,
      date: Math.floor(now.getTime() / 1000),
      chat: { id: Number(chatId), type: "private" },
      text,
    },
  });
}

/**
 * A tester pressing Start on the bot's deep link in chat `chatId`: the update Telegram would send,
 * posted to `webhook` with the secret header; what the bot answers in the reply is kept as sent.
 */
export async function pressStart(
  db: Database,
  config: TelegramBotConfig,
  webhook: (request: Request) => Promise<Response>,
  { chatId, payload, command = "start" }: { chatId: number; payload: string; command?: "start" | "stop" },
) {
  const text = payload ? `/${command} ${payload}` : `/${command}`;
  const update = {
    update_id: Math.floor(Math.random() * 2 ** 31),
    message: {
      message_id: Math.floor(Math.random() * 2 ** 31),
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: "private", first_name: "Tester" },
      from: { id: chatId, is_bot: false, first_name: "Tester" },
      text,
      entities: [{ type: "bot_command", offset: 0, length: command.length + 1 }],
    },
  };
  const answer = await webhook(
    new Request(`${config.apiRoot}/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": config.webhookSecret },
      body: JSON.stringify(update),
    }),
  );
  const reply = (await answer.json().catch(() => null)) as { method?: string; chat_id?: number; text?: string } | null;
  if (reply?.method === "sendMessage" && reply.text)
    await db.insert(telegramStandInMessages).values({ chatId: String(reply.chat_id ?? chatId), text: reply.text, createdAt: new Date() });
  return answer.status;
}

/** A chat whose person blocked the bot: the stand-in refuses to deliver to it from now on. */
export async function blockBotInStandIn(db: Database, chatId: string) {
  await db.insert(telegramStandInBlockedChats).values({ chatId }).onConflictDoNothing();
}

/** The newest messages the stand-in was sent (the outbox page). */
export async function latestTelegramStandInMessages(db: Database, limit: number) {
  return db.select().from(telegramStandInMessages).orderBy(desc(telegramStandInMessages.createdAt)).limit(limit);
}
