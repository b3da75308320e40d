// The shared action of "send me a link" forms: validate, rate-limit per account and client, and answer
// the same whether or not an account matched, so the form cannot be used to find out who has one. The
// lookup and the mail happen after the answer, so its timing says nothing either. Shared by
// forgot-password.tsx, sign-in-link.tsx and auth.resend.tsx.
import { type AppLoadContext, data } from "@remix-run/cloudflare";

import { EmailOnlySchema } from "~/domain/auth-schemas";
import type { RateLimit } from "~/domain/rate-limits";
import { parseForm } from "~/forms";
import { waitMessage } from "~/refusal-messages";
import { afterResponse } from "~/server/after-response.server";
import { readFormData } from "~/server/form-body.server";
import { takeAttempt } from "~/server/rate-limit.server";

export async function handleEmailRequest(
  context: AppLoadContext,
  request: Request,
  limitsFor: (email: string) => Array<[string, RateLimit]>,
  sendLinkIfAccount: (email: string, now: Date) => Promise<void>,
) {
  const { db } = context;
  const now = new Date();
  const submission = parseForm(await readFormData(request), EmailOnlySchema);
  if (submission.status !== "success") return data({ result: submission.reply(), sent: false, formError: null }, { status: 400 });
  const limit = await takeAttempt(db, limitsFor(submission.value.email), now);
  if (!limit.allowed) {
    return data({ result: submission.reply(), sent: false, formError: waitMessage(limit.retryAfterMs) }, { status: 429 });
  }
  const { email } = submission.value;
  afterResponse(context, "email-link-request", () => sendLinkIfAccount(email, now));
  return data({ result: submission.reply({ resetForm: true }), sent: true, formError: null });
}
