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
  /** Failed sign-ins for one account, and from one client. */
  signInFailuresPerAccount: { maxAttempts: 5, windowMs: FIFTEEN_MINUTES_MS },
  signInFailuresPerClient: { maxAttempts: 5, windowMs: FIFTEEN_MINUTES_MS },
  signUpsPerClient: { maxAttempts: 5, windowMs: ONE_HOUR_MS },
  resetRequestsPerAccount: { maxAttempts: 3, windowMs: FIFTEEN_MINUTES_MS },
  resetRequestsPerClient: { maxAttempts: 10, windowMs: FIFTEEN_MINUTES_MS },
  resendsPerAccount: { maxAttempts: 3, windowMs: FIFTEEN_MINUTES_MS },
  resendsPerClient: { maxAttempts: 10, windowMs: FIFTEEN_MINUTES_MS },
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
export function minutesToWait(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 60_000));
}
