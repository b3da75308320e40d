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
};

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
  const config = {
    ...parsed.data,
    standInsEnabled: !production,
    trustsClientAddressHeader: production || parsed.data.TRUST_CF_CONNECTING_IP === "true",
    paymentProvider: parsed.data.PAYMENT_PROVIDER ?? (production ? "chapa" : "sandbox"),
    paymentWindowMs: parsed.data.PAYMENT_WINDOW_SECONDS ? parsed.data.PAYMENT_WINDOW_SECONDS * 1000 : PAYMENT_WINDOW_MS,
    siteOrigin: parsed.data.SITE_URL ? new URL(parsed.data.SITE_URL).origin : LOCAL_SITE_ORIGIN,
  };
  validated.set(env, config);
  return config;
}
