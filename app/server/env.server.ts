// The Worker's environment, validated once per isolate (docs/decisions: stand-ins off in production).
import { z } from "zod";

const EnvSchema = z.object({
  APP_ENV: z.enum(["development", "test", "production"]),
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters"),
});

export type AppConfig = z.infer<typeof EnvSchema> & {
  /** Built-in stand-ins for Google, the payment provider and mail are on only when this is true. */
  standInsEnabled: boolean;
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
  const config = { ...parsed.data, standInsEnabled: parsed.data.APP_ENV !== "production" };
  validated.set(env, config);
  return config;
}
