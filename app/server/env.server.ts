// The Worker's environment, validated once per isolate. Local stand-ins (Google, payment sandbox, mail
// outbox as the only delivery) are on only outside production; production must name real providers.
import { z } from "zod";

const optionalUrl = z.url().optional();

const EnvSchema = z
  .object({
    APP_ENV: z.enum(["development", "test", "production"]),
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
  })
  .superRefine((env, context) => {
    if (env.APP_ENV !== "production") return;
    for (const name of ["MAIL_API_KEY", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"] as const) {
      if (!env[name]) context.addIssue({ code: "custom", path: [name], message: `${name} is required in production` });
    }
  });

export type AppConfig = z.infer<typeof EnvSchema> & {
  /** Built-in stand-ins for Google, the payment provider and mail are on only when this is true. */
  standInsEnabled: boolean;
  /** Whether the client address header comes from Cloudflare's edge (see client-address.server). */
  trustsClientAddressHeader: boolean;
};

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
  };
  validated.set(env, config);
  return config;
}
