// Rate limits kept in D1, so they hold across isolates and in every environment, tests included.
import { and, eq, gt, inArray, lt } from "drizzle-orm";
import { rateLimitHits } from "~/db/schema";
import { rateLimitDecision, type RateLimit } from "~/domain/rate-limits";
import type { Database } from "~/server/db/client.server";

export type RateLimitCheck = { allowed: true } | { allowed: false; retryAfterMs: number };

export async function checkRateLimit(db: Database, key: string, limit: RateLimit, now: Date): Promise<RateLimitCheck> {
  const hits = await db
    .select({ hitAt: rateLimitHits.hitAt })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.hitAt, new Date(now.getTime() - limit.windowMs))));
  return rateLimitDecision(limit, hits.map((hit) => hit.hitAt.getTime()), now.getTime());
}

/** Records one attempt; returns its id, so a successful attempt can be taken back. */
export async function recordRateLimitHit(db: Database, key: string, now: Date) {
  const [hit] = await db.insert(rateLimitHits).values({ key, hitAt: now }).returning({ id: rateLimitHits.id });
  return hit!.id;
}

export async function forgetRateLimitHits(db: Database, ids: number[]) {
  if (ids.length) await db.delete(rateLimitHits).where(inArray(rateLimitHits.id, ids));
}

/** The same limits, for a check made after this attempt was recorded: it may be the last one allowed. */
export function countingThisAttempt(limits: Array<[string, RateLimit]>): Array<[string, RateLimit]> {
  return limits.map(([key, limit]) => [key, { ...limit, maxAttempts: limit.maxAttempts + 1 }]);
}

/** Checks every limit; the longest wait wins. */
export async function checkRateLimits(db: Database, limits: Array<[string, RateLimit]>, now: Date): Promise<RateLimitCheck> {
  const checks = await Promise.all(limits.map(([key, limit]) => checkRateLimit(db, key, limit, now)));
  const refusals = checks.filter((check): check is { allowed: false; retryAfterMs: number } => !check.allowed);
  if (refusals.length === 0) return { allowed: true };
  return { allowed: false, retryAfterMs: Math.max(...refusals.map((refusal) => refusal.retryAfterMs)) };
}

export async function clearRateLimitHits(db: Database, key: string) {
  await db.delete(rateLimitHits).where(eq(rateLimitHits.key, key));
}

/** Housekeeping: attempts older than the longest window no longer count. */
export async function deleteRateLimitHitsBefore(db: Database, cutoff: Date) {
  await db.delete(rateLimitHits).where(lt(rateLimitHits.hitAt, cutoff));
}
