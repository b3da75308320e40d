// A password sign-in attempt, limited three ways (docs/decisions/0012-threat-model.md):
// - per account and client: 5 failures in 15 minutes and that client waits; the owner elsewhere does
//   not. On a device that signed in to the account before, "client" is that device, not its address;
// - per client, across accounts: a client spraying many accounts waits;
// - per account, from anywhere: past 10 failures each attempt waits a doubling delay (backoff), so
//   guessing spread over many clients is slowed without locking the owner out; the owner's known
//   devices are not slowed, and the owner is told by email when the backoff starts.
// Each attempt is counted before the password is checked, so parallel guesses cannot slip past; an
// attempt refused for waiting tested no password and is not counted as a failure.
import type { AppLoadContext } from "@remix-run/cloudflare";

import { ACCOUNT_BACKOFF, accountBackoffDecision, RATE_LIMITS } from "~/domain/rate-limits";
import { afterResponse } from "~/server/after-response.server";
import { sendAccountNotice } from "~/server/auth/account-links.server";
import { checkCredentials, findUserByEmail } from "~/server/auth/accounts.server";
import { clientKey } from "~/server/auth/client-limits.server";
import { knownDeviceIdFor } from "~/server/auth/known-device.server";
import { attemptTimesUpTo, clearRateLimitHits, forgetRateLimitHits, takeAttempt } from "~/server/rate-limit.server";

export type SignInAttempt =
  | { ok: true; userId: string; emailConfirmed: boolean }
  | { ok: false; reason: "wait"; retryAfterMs: number }
  | { ok: false; reason: "invalid" };

export async function attemptPasswordSignIn(
  context: AppLoadContext,
  request: Request,
  email: string,
  password: string,
): Promise<SignInAttempt> {
  const { db } = context;
  const now = new Date();
  const knownDeviceId = await knownDeviceIdFor(request, email, context.config);
  const accountAndClient = knownDeviceId
    ? `sign-in:account-device:${email}:${knownDeviceId}`
    : `sign-in:account-client:${email}:${clientKey(request)}`;
  const client = knownDeviceId ? `sign-in:device:${knownDeviceId}` : `sign-in:client:${clientKey(request)}`;
  const account = `sign-in:account:${email}`;
  const limits = await takeAttempt(
    db,
    [
      [accountAndClient, RATE_LIMITS.signInFailuresPerAccountAndClient],
      [client, RATE_LIMITS.signInFailuresPerClient],
      // Counted here too, for the account-wide backoff below (no limit of its own).
      [account, { maxAttempts: Number.MAX_SAFE_INTEGER, windowMs: ACCOUNT_BACKOFF.windowMs }],
    ],
    now,
  );
  const accountHitId = limits.hitIds[2]!;
  const earlierFailures = await attemptTimesUpTo(db, account, accountHitId - 1, ACCOUNT_BACKOFF.windowMs, now);
  const backoff = knownDeviceId ? ({ allowed: true } as const) : accountBackoffDecision(earlierFailures, now.getTime());
  if (!limits.allowed || !backoff.allowed) {
    await forgetRateLimitHits(db, limits.hitIds);
    const waits = [limits, backoff].map((decision) => (decision.allowed ? 0 : decision.retryAfterMs));
    return { ok: false, reason: "wait", retryAfterMs: Math.max(...waits) };
  }

  const check = await checkCredentials(db, email, password);
  if (!check.ok) {
    if (earlierFailures.length + 1 === ACCOUNT_BACKOFF.afterFailures)
      afterResponse(context, "sign-in-guessing-notice", () => tellOwnerOfGuessing(context, request, email));
    return { ok: false, reason: "invalid" };
  }
  await forgetRateLimitHits(db, limits.hitIds);
  await clearRateLimitHits(db, accountAndClient);
  return { ok: true, userId: check.userId, emailConfirmed: check.emailConfirmed };
}

/** The account's owner hears that its password is being guessed, and what they can do. */
async function tellOwnerOfGuessing(context: AppLoadContext, request: Request, email: string) {
  const user = await findUserByEmail(context.db, email);
  if (!user) return;
  await sendAccountNotice("signInGuessing", context, request, user.id);
}
