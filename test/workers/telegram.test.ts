// Telegram notifications (docs/decisions/0035) through the local Bot API stand-in: linking by the deep
// link's one-time token, unlinking, the webhook's secret, each kind of news in both languages, the
// "new message" limit and a chat that blocked the bot.
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { describe, expect, it } from "vitest";

import { profiles, telegramLinks, telegramOutbox, telegramStandInMessages } from "~/db/schema";
import type { TelegramKind } from "~/domain/telegram";
import amTexts from "~/locales/am/server.json";
import enTexts from "~/locales/en/server.json";
import { loadConfig } from "~/server/env.server";
import { deliverDueTelegram } from "~/server/telegram/outbox.server";
import { queuedTelegram, queueNewRequestForDoctors } from "~/server/telegram/queue.server";
import { blockBotInStandIn } from "~/server/telegram/stand-in-api.server";

import type { ConsultationRoom } from "../../party/consultation";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, ORIGIN, signedIn } from "./fixtures";
import { attemptPaidAtProvider } from "./money-fixtures";

const config = loadConfig(env);
const bot = config.telegram!;
/** News queued on its own, as if its cause had just been written. */
const queueTelegram = async (news: Parameters<typeof queuedTelegram>[1], now = new Date()) => {
  await queuedTelegram(db, news, now);
};
const newChat = () => 100_000_000 + Math.floor(Math.random() * 900_000_000);

/** The token in the deep link the profile's "Link Telegram" leads to. */
async function linkToken(visitor: Visitor, role: "patient" | "doctor") {
  const answer = await visitor.post(`/${role}/profile/telegram`, { intent: "link-telegram" });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get("Location")!, ORIGIN);
  expect(location.pathname).toBe("/dev/telegram/start");
  return location.searchParams.get("start")!;
}

/** A tester pressing Start (or sending /stop) in chat `chatId` on the stand-in's page. */
async function press(chatId: number, payload: string, intent: "start" | "stop" = "start") {
  const answer = await new Visitor().post("/dev/telegram/start", { chatId: String(chatId), payload, intent });
  expect(answer.headers.get("Location")).toBe("/dev/outbox#telegram");
}

const chatMessages = (chatId: number) =>
  db
    .select()
    .from(telegramStandInMessages)
    .where(eq(telegramStandInMessages.chatId, String(chatId)))
    .orderBy(telegramStandInMessages.createdAt);

const linkOf = async (userId: string) => (await db.select().from(telegramLinks).where(eq(telegramLinks.userId, userId)))[0] ?? null;

/** A patient whose chat is linked, reading in `language`. */
async function linkedPatient(language: "en" | "am" = "en") {
  const patient = await signedIn("patient");
  await db.update(profiles).set({ preferredLanguage: language }).where(eq(profiles.userId, patient.userId));
  const chatId = newChat();
  await press(chatId, await linkToken(new Visitor(patient.cookie), "patient"));
  expect(await linkOf(patient.userId)).toMatchObject({ chatId: String(chatId) });
  return { ...patient, chatId };
}

const webhook = (body: unknown, secret?: string) =>
  SELF.fetch(`${ORIGIN}/telegram/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(secret === undefined ? {} : { "X-Telegram-Bot-Api-Secret-Token": secret }) },
    body: JSON.stringify(body),
  });

const startUpdate = (chatId: number, text: string) => ({
  update_id: 1,
  message: {
    message_id: 1,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chatId, type: "private", first_name: "T" },
    from: { id: chatId, is_bot: false, first_name: "T" },
    text,
    entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0]!.length }],
  },
});

describe("linking Telegram", () => {
  it("links the chat that pressed Start with the profile's token, and says so in the person's language", async () => {
    const { chatId } = await linkedPatient("am");
    expect((await chatMessages(chatId)).map((message) => message.text)).toEqual([amTexts.telegram.bot.linked]);
  });

  it("uses a token once: a second chat pressing Start on the same link is not linked", async () => {
    const patient = await signedIn("patient");
    const token = await linkToken(new Visitor(patient.cookie), "patient");
    const first = newChat();
    const second = newChat();
    await press(first, token);
    await press(second, token);
    expect(await linkOf(patient.userId)).toMatchObject({ chatId: String(first) });
    expect((await chatMessages(second)).map((message) => message.text)).toEqual([enTexts.telegram.bot.notLinked]);
  });

  it("refuses a token past its 15 minutes", async () => {
    const { redeemTelegramLinkToken, createTelegramLinkToken } = await import("~/server/telegram/links.server");
    const userId = await createUser("patient");
    const made = new Date();
    const token = await createTelegramLinkToken(db, userId, made);
    expect(await redeemTelegramLinkToken(db, token, String(newChat()), new Date(made.getTime() + 15 * 60_000 + 1))).toBeNull();
    expect(await redeemTelegramLinkToken(db, token, String(newChat()), new Date(made.getTime() + 14 * 60_000))).toBe(userId);
  });

  it("refuses a token it never made, and links nobody", async () => {
    const chatId = newChat();
    await press(chatId, "not-a-token-we-made_0123456789abcdefghijklmnopqrstuv");
    expect(
      await db
        .select()
        .from(telegramLinks)
        .where(eq(telegramLinks.chatId, String(chatId))),
    ).toEqual([]);
    expect((await chatMessages(chatId)).map((message) => message.text)).toEqual([enTexts.telegram.bot.notLinked]);
  });

  it("shows the profile page's link button, and once linked, the unlink button (a doctor also the new-request choice)", async () => {
    const doctor = await signedIn("doctor");
    const visitor = new Visitor(doctor.cookie);
    const before = await visitor.get("/doctor/profile/telegram");
    expect(await before.text()).toContain(enTexts.telegram.profile.link);
    // "Link Telegram" posts here and is redirected to t.me: the policy lets the form go there.
    expect(before.headers.get("Content-Security-Policy")).toMatch(/form-action [^;]*https:\/\/t\.me/);
    await press(newChat(), await linkToken(visitor, "doctor"));
    const page = await (await visitor.get("/doctor/profile/telegram")).text();
    expect(page).toContain(enTexts.telegram.profile.unlink);
    expect(page).toContain(enTexts.telegram.profile.newRequests.title);
  });
});

describe("unlinking Telegram", () => {
  it("unlinks from the profile, and what was waiting is not sent", async () => {
    const patient = await linkedPatient();
    const consultation = await createConsultation(patient.userId, "pending");
    await queueTelegram({ userId: patient.userId, kind: "new_message", consultationId: consultation.id, link: "/x" });
    const answer = await new Visitor(patient.cookie).post("/patient/profile/telegram", { intent: "unlink-telegram" });
    expect(answer.headers.get("Location")).toBe("/patient/profile/telegram");
    expect(await linkOf(patient.userId)).toBeNull();
    expect(
      await db.select({ status: telegramOutbox.status }).from(telegramOutbox).where(eq(telegramOutbox.userId, patient.userId)),
    ).toEqual([{ status: "dropped" }]);
  });

  it("unlinks with /stop in the bot", async () => {
    const patient = await linkedPatient();
    await press(patient.chatId, "", "stop");
    expect(await linkOf(patient.userId)).toBeNull();
    expect((await chatMessages(patient.chatId)).at(-1)?.text).toBe(enTexts.telegram.bot.unlinked);
  });
});

describe("the webhook", () => {
  it("acts only on updates carrying the secret token", async () => {
    const patient = await signedIn("patient");
    const token = await linkToken(new Visitor(patient.cookie), "patient");
    const chatId = newChat();
    expect((await webhook(startUpdate(chatId, `/start ${token}`))).status).toBe(401);
    expect((await webhook(startUpdate(chatId, `/start ${token}`), "x".repeat(40))).status).toBe(401);
    expect(await linkOf(patient.userId)).toBeNull();
    const answer = await webhook(startUpdate(chatId, `/start ${token}`), bot.webhookSecret);
    expect(answer.status).toBe(200);
    // The bot's answer rides on the webhook's reply, in the Bot API's shape.
    expect(await answer.json()).toMatchObject({ method: "sendMessage", chat_id: chatId, text: enTexts.telegram.bot.linked });
    expect(await linkOf(patient.userId)).toMatchObject({ chatId: String(chatId) });
  });

  it("answers a GET with 405", async () => {
    expect((await SELF.fetch(`${ORIGIN}/telegram/webhook`)).status).toBe(405);
  });
});

describe("the news sent", () => {
  const KINDS: TelegramKind[] = [
    "consultation_accepted",
    "payment_received",
    "new_message",
    "summary_ready",
    "payment_refunded",
    "money_refunded",
    "payout_paid",
  ];
  it.each(["en", "am"] as const)("words each kind in the reader's language (%s), with the link", async (language) => {
    const texts = language === "en" ? enTexts : amTexts;
    for (const kind of KINDS) {
      const patient = await linkedPatient(language);
      const consultation = await createConsultation(patient.userId, "pending", { title: "Dry patch" });
      await queueTelegram({
        userId: patient.userId,
        kind,
        consultationId: consultation.id,
        link: `/patient/consultation/${consultation.id}`,
      });
      expect((await deliverDueTelegram(db, config, new Date(), { userIds: [patient.userId] })).sent).toBe(1);
      const expected = texts.telegram.kinds[kind as keyof typeof texts.telegram.kinds].replace("{{title}}", "Dry patch");
      expect((await chatMessages(patient.chatId)).at(-1)?.text).toBe(`${expected}\n\n${ORIGIN}/patient/consultation/${consultation.id}`);
    }
  });

  it("sends nothing to a person who has not linked Telegram", async () => {
    const userId = await createUser("patient");
    await queueTelegram({ userId, kind: "payment_received", consultationId: null, link: "/patient/dashboard" });
    expect(await db.select().from(telegramOutbox).where(eq(telegramOutbox.userId, userId))).toEqual([]);
  });

  it("tells a linked patient a doctor accepted, with the payment link", async () => {
    const patient = await linkedPatient();
    const consultation = await createConsultation(patient.userId, "pending", { title: "Red spots" });
    const doctor = await signedIn("doctor");
    const accepted = await new Visitor(doctor.cookie).post(`/consultation/${consultation.id}/accept`, {});
    expect(accepted.status).toBe(302);
    await deliverDueTelegram(db, config, new Date(), { userIds: [patient.userId] });
    const expected = enTexts.telegram.kinds.consultation_accepted.replace("{{title}}", "Red spots");
    expect((await chatMessages(patient.chatId)).map((message) => message.text)).toContain(
      `${expected}\n\n${ORIGIN}/patient/payment/${consultation.id}`,
    );
  });

  it("sends “payment received” as the payment is confirmed, not at the job's next run", async () => {
    const patient = await linkedPatient("am");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patient.userId, "accepted_awaiting_payment", {
      doctorId,
      title: "Itchy arm",
      acceptedAt: new Date(Date.now() - 60_000),
      paymentDeadlineAt: new Date(Date.now() + 14 * 60_000),
    });
    const txRef = await attemptPaidAtProvider(consultation.id, patient.userId);
    const back = await new Visitor(patient.cookie).get(`/payments/return/${txRef}`);
    expect(back.headers.get("Location")).toBe(`/patient/consultation/${consultation.id}`);
    const expected = amTexts.telegram.kinds.payment_received.replace("{{title}}", "Itchy arm");
    await expect
      .poll(async () => (await chatMessages(patient.chatId)).map((message) => message.text))
      .toContain(`${expected}\n\n${ORIGIN}/patient/consultation/${consultation.id}`);
  });

  it("sends “new message” as the doctor writes to a patient who is away", async () => {
    const patient = await linkedPatient();
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patient.userId, "in_progress", { doctorId, title: "Cracked heel" });
    const room = (await getServerByName(env.ConsultationRoom, consultation.id)) as DurableObjectStub<ConsultationRoom>;
    expect((await room.postMessage({ senderId: doctorId, kind: "text", text: "How is it today?", fileId: null })).ok).toBe(true);
    const expected = enTexts.telegram.kinds.new_message.replace("{{title}}", "Cracked heel");
    await expect
      .poll(async () => (await chatMessages(patient.chatId)).map((message) => message.text))
      .toContain(`${expected}\n\n${ORIGIN}/patient/consultation/${consultation.id}`);
  });

  it("sends at most one new-message note per consultation in ten minutes", async () => {
    const patient = await linkedPatient();
    const consultation = await createConsultation(patient.userId, "pending");
    const news = { userId: patient.userId, kind: "new_message" as const, consultationId: consultation.id, link: "/x" };
    const start = new Date();
    await queueTelegram(news, start);
    await queueTelegram(news, new Date(start.getTime() + 9 * 60_000));
    const other = await createConsultation(patient.userId, "pending");
    await queueTelegram({ ...news, consultationId: other.id }, new Date(start.getTime() + 9 * 60_000));
    await queueTelegram(news, new Date(start.getTime() + 10 * 60_000 + 1));
    const rows = await db
      .select({ consultationId: telegramOutbox.consultationId })
      .from(telegramOutbox)
      .where(and(eq(telegramOutbox.userId, patient.userId), eq(telegramOutbox.kind, "new_message")));
    expect(rows.filter((row) => row.consultationId === consultation.id)).toHaveLength(2);
    expect(rows.filter((row) => row.consultationId === other.id)).toHaveLength(1);
  });

  it("unlinks a chat that blocked the bot instead of retrying it", async () => {
    const patient = await linkedPatient();
    await blockBotInStandIn(db, String(patient.chatId));
    await queueTelegram({ userId: patient.userId, kind: "payout_paid", consultationId: null, link: "/doctor/earnings" });
    const report = await deliverDueTelegram(db, config, new Date(), { userIds: [patient.userId] });
    expect(report).toMatchObject({ sent: 0, unlinked: 1, retrying: 0 });
    expect(await linkOf(patient.userId)).toBeNull();
    const later = await deliverDueTelegram(db, config, new Date(Date.now() + 24 * 60 * 60_000), { userIds: [patient.userId] });
    expect(later).toMatchObject({ sent: 0, unlinked: 0, retrying: 0, failed: 0 });
  });

  it("tells doctors of a new request only when they asked for it", async () => {
    const asking = await signedIn("doctor");
    const quiet = await signedIn("doctor");
    const askingChat = newChat();
    await press(askingChat, await linkToken(new Visitor(asking.cookie), "doctor"));
    await press(newChat(), await linkToken(new Visitor(quiet.cookie), "doctor"));
    const saved = await new Visitor(asking.cookie).post("/doctor/profile/telegram", { intent: "telegram-new-requests", wants: "yes" });
    expect(saved.headers.get("Location")).toBe("/doctor/profile/telegram");
    const patientId = await createUser("patient");
    const consultation = await createConsultation(patientId, "pending", { title: "Scalp flakes" });
    const told = await queueNewRequestForDoctors(db, consultation.id, null);
    expect(told).toContain(asking.userId);
    expect(told).not.toContain(quiet.userId);
    await deliverDueTelegram(db, config, new Date(), { userIds: [asking.userId] });
    const expected = enTexts.telegram.kinds.new_request.replace("{{title}}", "Scalp flakes");
    expect((await chatMessages(askingChat)).at(-1)?.text).toBe(`${expected}\n\n${ORIGIN}/consultation/${consultation.id}/accept`);
  });

  it("answers a bad choice with a 400 in the reader's words", async () => {
    const doctor = await signedIn("doctor");
    const answer = await new Visitor(doctor.cookie).post("/doctor/profile/telegram", { intent: "telegram-new-requests", wants: "maybe" });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain(enTexts.telegram.profile.errors.chooseYesOrNo);
  });
});

describe("the bot's settings", () => {
  it("refuses a production with only part of Telegram's settings, and leaves Telegram off without them", () => {
    const production = {
      ...env,
      APP_ENV: "production",
      SITE_URL: "https://qoda.et",
      MAIL_API_KEY: "k",
      GOOGLE_CLIENT_ID: "g",
      GOOGLE_CLIENT_SECRET: "g",
      CHAPA_SECRET_KEY: "c",
      CHAPA_WEBHOOK_SECRET: "c",
    } as Env;
    expect(loadConfig(production).telegram).toBeNull();
    expect(() => loadConfig({ ...production, TELEGRAM_BOT_TOKEN: "123456:abc" } as Env)).toThrow(/TELEGRAM_BOT_TOKEN/);
    const bot = loadConfig({
      ...production,
      TELEGRAM_BOT_TOKEN: "123456:abc",
      TELEGRAM_BOT_USERNAME: "qoda_bot",
      TELEGRAM_WEBHOOK_SECRET: "s".repeat(40),
    } as Env).telegram;
    expect(bot).toMatchObject({ apiRoot: "https://api.telegram.org", standIn: false, username: "qoda_bot" });
  });

  it("shows admins a message given up on, on /admin/mail", async () => {
    const patient = await linkedPatient();
    await db.insert(telegramOutbox).values({
      userId: patient.userId,
      kind: "payout_paid",
      link: "/doctor/earnings",
      status: "failed",
      attempts: 6,
      lastError: "HTTP 502",
    });
    const admin = await signedIn("admin");
    const page = await (await new Visitor(admin.cookie).get("/admin/mail")).text();
    expect(page).toContain(`Given up: payout_paid for user ${patient.userId}, after 6 attempts`);
    expect(page).toContain("HTTP 502");
  });
});
