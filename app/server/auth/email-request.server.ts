// The shared action of "send me a link" forms: validate, rate-limit per account and client, and answer
// the same whether or not an account matched, so the form cannot be used to find out who has one.
import { parseWithZod } from "@conform-to/zod/v4";
import { readFormData } from "~/server/form-body.server";
import { data } from "@remix-run/cloudflare";
import { EmailOnlySchema } from "~/domain/auth-schemas";
import { minutesToWait, type RateLimit } from "~/domain/rate-limits";
import type { Database } from "~/server/db/client.server";
import { checkRateLimits, recordRateLimitHit } from "~/server/rate-limit.server";

export async function handleEmailRequest(
  db: Database,
  request: Request,
  limitsFor: (email: string) => Array<[string, RateLimit]>,
  sendLinkIfAccount: (email: string, now: Date) => Promise<void>,
) {
  const now = new Date();
  const submission = parseWithZod(await readFormData(request), { schema: EmailOnlySchema });
  if (submission.status !== "success") return data({ result: submission.reply(), sent: false, formError: null }, { status: 400 });
  const limits = limitsFor(submission.value.email);
  const limit = await checkRateLimits(db, limits, now);
  if (!limit.allowed) {
    const formError = { key: "forms.errors.rateLimited", values: { minutes: minutesToWait(limit.retryAfterMs) } };
    return data({ result: submission.reply(), sent: false, formError }, { status: 429 });
  }
  for (const [key] of limits) await recordRateLimitHit(db, key, now);
  await sendLinkIfAccount(submission.value.email, now);
  return data({ result: submission.reply({ resetForm: true }), sent: true, formError: null });
}
