// The Worker's environment, validated once per isolate. Local stand-ins (Google, payment sandbox, mail
// outbox as the only delivery) are on only outside production; production must name real providers.
import { z } from "zod";

import { PAYMENT_WINDOW_MS } from "~/domain/constants";

const optionalUrl = z.url().optional();

const EnvSchema = z
  .object({
    APP_ENV: z.enum(["development", "test", "production"]),
    /**
     * The site's own address (https://qoda.et), for what the scheduled job writes without a request
     * to take it from: links in the mail a late payment sends. Outside production, the local server.
     */
    SITE_URL: z.url().optional(),
    SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters"),
    MAIL_FROM: z.string().default("Qoda <no-reply@qoda.et>"),
    MAIL_API_KEY: z.string().optional(),
    /** Resend-compatible send endpoint. */
    MAIL_API_URL: z.url().default("https://api.resend.com/emails"),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    GOOGLE_AUTHORIZATION_ENDPOINT: optionalUrl,
    GOOGLE_TOKEN_ENDPOINT: optionalUrl,
    GOOGLE_USERINFO_ENDPOINT: optionalUrl,
    /**
     * Outside production, whether CF-Connecting-IP may be believed: only test harnesses that play
     * Cloudflare's edge set it. In production the edge sets the header, so it is always believed.
     */
    TRUST_CF_CONNECTING_IP: z.enum(["true", "false"]).default("false"),
    /** Which payment provider takes the money: Chapa, or the local sandbox checkout (never in production). */
    PAYMENT_PROVIDER: z.enum(["chapa", "sandbox"]).optional(),
    CHAPA_API_URL: z.url().default("https://api.chapa.co"),
    CHAPA_SECRET_KEY: z.string().optional(),
    /** The secret Chapa signs its webhooks with (x-chapa-signature). */
    CHAPA_WEBHOOK_SECRET: z.string().optional(),
    /** Outside production only: a shorter payment window, so tests can watch it close. */
    PAYMENT_WINDOW_SECONDS: z.coerce.number().int().min(5).max(3600).optional(),
    /** Telegram notifications (optional in production; outside it, the local Bot API stand-in by default). */
    TELEGRAM_BOT_TOKEN: z
      .string()
      .regex(/^\d+:[\w-]+$/, "TELEGRAM_BOT_TOKEN is the token BotFather gave")
      .optional(),
    /** The bot's @username, without the @, for the deep links. */
    TELEGRAM_BOT_USERNAME: z
      .string()
      .regex(/^\w{5,32}$/)
      .optional(),
    /** What Telegram sends in X-Telegram-Bot-Api-Secret-Token (setWebhook's secret_token). */
    TELEGRAM_WEBHOOK_SECRET: z
      .string()
      .regex(/^[\w-]{32,256}$/, "TELEGRAM_WEBHOOK_SECRET: 32 to 256 of A-Z a-z 0-9 _ -")
      .optional(),
    /** Where the Bot API is (api.telegram.org unless set). */
    TELEGRAM_API_ROOT: optionalUrl,
  })
  .superRefine((env, context) => {
    if (env.APP_ENV !== "production") return;
    for (const name of [
      "SITE_URL",
      "MAIL_API_KEY",
      "GOOGLE_CLIENT_ID",
      "GOOGLE_CLIENT_SECRET",
      "CHAPA_SECRET_KEY",
      "CHAPA_WEBHOOK_SECRET",
    ] as const) {
      if (!env[name]) context.addIssue({ code: "custom", path: [name], message: `${name} is required in production` });
    }
    const telegram = [env.TELEGRAM_BOT_TOKEN, env.TELEGRAM_BOT_USERNAME, env.TELEGRAM_WEBHOOK_SECRET];
    if (telegram.some(Boolean) && !telegram.every(Boolean))
      context.addIssue({
        code: "custom",
        path: ["TELEGRAM_BOT_TOKEN"],
        message: "Telegram needs TELEGRAM_BOT_TOKEN, TELEGRAM_BOT_USERNAME and TELEGRAM_WEBHOOK_SECRET together",
      });
    if (env.PAYMENT_PROVIDER === "sandbox")
      context.addIssue({ code: "custom", path: ["PAYMENT_PROVIDER"], message: "the payment sandbox is off in production" });
    if (env.PAYMENT_WINDOW_SECONDS !== undefined)
      context.addIssue({ code: "custom", path: ["PAYMENT_WINDOW_SECONDS"], message: "the payment window is fixed in production" });
  });

export type AppConfig = z.infer<typeof EnvSchema> & {
  /** Built-in stand-ins for Google, the payment provider and mail are on only when this is true. */
  standInsEnabled: boolean;
  /** Whether the client address header comes from Cloudflare's edge (see client-address.server). */
  trustsClientAddressHeader: boolean;
  paymentProvider: "chapa" | "sandbox";
  /** How long a patient has to pay once a doctor accepts. */
  paymentWindowMs: number;
  /** SITE_URL's origin (outside production, the local server's by default). */
  siteOrigin: string;
  /** The Telegram bot, or null when Telegram is off (a production without its settings). */
  telegram: TelegramBotConfig | null;
};

export interface TelegramBotConfig {
  token: string;
  username: string;
  webhookSecret: string;
  /** The Bot API's root; the local stand-in's (/dev/telegram) outside production unless set. */
  apiRoot: string;
  /** True when apiRoot is the local stand-in, answered in the Worker itself. */
  standIn: boolean;
}

/** The stand-in bot's settings: a token in BotFather's shape, a secret only this Worker knows. */
function standInTelegram(siteOrigin: string, sessionSecret: string): TelegramBotConfig {
  return {
    token: "1000000001:qoda-stand-in",
    username: "qoda_stand_in_bot",
    webhookSecret: `stand-in-${sessionSecret
      .replace(/[^\w-]/g, "")
      .slice(0, 40)
      .padEnd(32, "0")}`,
    apiRoot: `${siteOrigin}/dev/telegram`,
    standIn: true,
  };
}

function telegramConfig(env: z.infer<typeof EnvSchema>, standInsEnabled: boolean, siteOrigin: string): TelegramBotConfig | null {
  const { TELEGRAM_BOT_TOKEN: token, TELEGRAM_BOT_USERNAME: username, TELEGRAM_WEBHOOK_SECRET: webhookSecret } = env;
  if (token && username && webhookSecret) {
    const apiRoot = env.TELEGRAM_API_ROOT ?? "https://api.telegram.org";
    return { token, username, webhookSecret, apiRoot, standIn: false };
  }
  return standInsEnabled ? standInTelegram(siteOrigin, env.SESSION_SECRET) : null;
}

/** Where `npm start` serves the app when SITE_URL is not set. */
const LOCAL_SITE_ORIGIN = "http://localhost:8787";

const validated = new WeakMap<object, AppConfig>();

export function loadConfig(env: Env): AppConfig {
  const cached = validated.get(env);
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid Worker environment: ${problems.join("; ")}`);
  }
  const production = parsed.data.APP_ENV === "production";
  const siteOrigin = parsed.data.SITE_URL ? new URL(parsed.data.SITE_URL).origin : LOCAL_SITE_ORIGIN;
  const config = {
    ...parsed.data,
    standInsEnabled: !production,
    trustsClientAddressHeader: production || parsed.data.TRUST_CF_CONNECTING_IP === "true",
    paymentProvider: parsed.data.PAYMENT_PROVIDER ?? (production ? "chapa" : "sandbox"),
    paymentWindowMs: parsed.data.PAYMENT_WINDOW_SECONDS ? parsed.data.PAYMENT_WINDOW_SECONDS * 1000 : PAYMENT_WINDOW_MS,
    siteOrigin,
    telegram: telegramConfig(parsed.data, !production, siteOrigin),
  };
  validated.set(env, config);
  return config;
}
