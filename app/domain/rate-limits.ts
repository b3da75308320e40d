// How often each guarded action may be tried. A limit counts attempts within a sliding window.

export interface RateLimit {
  /** At most this many attempts… */
  maxAttempts: number;
  /** …within this window. */
  windowMs: number;
}

const FIFTEEN_MINUTES_MS = 15 * 60_000;
const ONE_HOUR_MS = 60 * 60_000;

export const RATE_LIMITS = {
  /** Failed sign-ins on one account from one client: that client waits, the owner elsewhere does not. */
  signInFailuresPerAccountAndClient: { maxAttempts: 5, windowMs: FIFTEEN_MINUTES_MS },
  /** Failed sign-ins from one client across accounts. Generous: many phones share an address (CGNAT). */
  signInFailuresPerClient: { maxAttempts: 30, windowMs: FIFTEEN_MINUTES_MS },
  signUpsPerClient: { maxAttempts: 5, windowMs: ONE_HOUR_MS },
  resetRequestsPerAccount: { maxAttempts: 3, windowMs: FIFTEEN_MINUTES_MS },
  resetRequestsPerClient: { maxAttempts: 10, windowMs: FIFTEEN_MINUTES_MS },
  resendsPerAccount: { maxAttempts: 3, windowMs: FIFTEEN_MINUTES_MS },
  signInLinksPerAccount: { maxAttempts: 3, windowMs: FIFTEEN_MINUTES_MS },
  signInLinksPerClient: { maxAttempts: 10, windowMs: FIFTEEN_MINUTES_MS },
  resendsPerClient: { maxAttempts: 10, windowMs: FIFTEEN_MINUTES_MS },
  /** Public forms (a doctor's application, a contact message): generous for shared addresses, dull for scripts. */
  doctorApplicationsPerClient: { maxAttempts: 5, windowMs: ONE_HOUR_MS },
  contactMessagesPerClient: { maxAttempts: 5, windowMs: ONE_HOUR_MS },
  /** Notices that need no link (someone signed up with your address): at most one an hour per address. */
  noticesPerAddress: { maxAttempts: 1, windowMs: ONE_HOUR_MS },
} satisfies Record<string, RateLimit>;

/**
 * Given the times of earlier attempts (any order), whether one more is allowed at `now`, and if not,
 * how long until the oldest attempt in the window falls out of it.
 */
export function rateLimitDecision(limit: RateLimit, attemptTimesMs: number[], now: number) {
  const inWindow = attemptTimesMs.filter((time) => time > now - limit.windowMs).sort((a, b) => a - b);
  if (inWindow.length < limit.maxAttempts) return { allowed: true as const };
  const oldestThatMustExpire = inWindow[inWindow.length - limit.maxAttempts]!;
  return { allowed: false as const, retryAfterMs: oldestThatMustExpire + limit.windowMs - now };
}

/** Whole minutes to tell a person to wait, never "0 minutes". */
function minutesToWait(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 60_000));
}

/** How long to tell a person to wait: whole seconds under a minute, else whole minutes. */
export interface WaitTime {
  unit: "seconds" | "minutes";
  count: number;
}

export function waitTime(retryAfterMs: number): WaitTime {
  return retryAfterMs < 60_000
    ? { unit: "seconds", count: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
    : { unit: "minutes", count: minutesToWait(retryAfterMs) };
}

/**
 * Guessing one account's password from many clients is slowed, not stopped: after this many failures
 * within the window (from anywhere), each further attempt waits for a delay that doubles with every
 * failure, up to the maximum. A device that has signed in to the account before is not slowed.
 */
export const ACCOUNT_BACKOFF = {
  afterFailures: 10,
  windowMs: 24 * ONE_HOUR_MS,
  firstDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
} as const;

/** Whether one more attempt on an account may be made at `now`, given its earlier failures' times. */
export function accountBackoffDecision(earlierFailureTimesMs: number[], now: number) {
  const inWindow = earlierFailureTimesMs.filter((time) => time > now - ACCOUNT_BACKOFF.windowMs);
  if (inWindow.length < ACCOUNT_BACKOFF.afterFailures) return { allowed: true as const };
  const delayMs = Math.min(
    ACCOUNT_BACKOFF.firstDelayMs * 2 ** (inWindow.length - ACCOUNT_BACKOFF.afterFailures),
    ACCOUNT_BACKOFF.maxDelayMs,
  );
  const readyAt = Math.max(...inWindow) + delayMs;
  return now >= readyAt ? { allowed: true as const } : { allowed: false as const, retryAfterMs: readyAt - now };
}
