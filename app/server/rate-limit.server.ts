// Rate limits kept in D1, so they hold across isolates and in every environment, tests included.
// An attempt is recorded before it is judged, and judged by the attempts recorded up to itself (D1
// hands out row ids in order): of any number of attempts arriving at once, exactly as many as the
// limit allows get through.
import { and, eq, gt, inArray, lte } from "drizzle-orm";

import { rateLimitHits } from "~/db/schema";
import { type RateLimit, rateLimitDecision } from "~/domain/rate-limits";
import type { Database } from "~/server/db/client.server";

export type RateLimitCheck = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Records one attempt under `key`; returns its id. */
async function recordHit(db: Database, key: string, now: Date) {
  const [hit] = await db.insert(rateLimitHits).values({ key, hitAt: now }).returning({ id: rateLimitHits.id });
  return hit!.id;
}

/** Times of the attempts under `key` within `windowMs`, up to and including the attempt `upToId`. */
export async function attemptTimesUpTo(db: Database, key: string, upToId: number, windowMs: number, now: Date) {
  const hits = await db
    .select({ hitAt: rateLimitHits.hitAt })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.key, key), lte(rateLimitHits.id, upToId), gt(rateLimitHits.hitAt, new Date(now.getTime() - windowMs))));
  return hits.map((hit) => hit.hitAt.getTime());
}

/**
 * Counts this attempt under every limit, then judges it by the attempts made up to it. Returns the
 * verdict (the longest wait wins) and the recorded hits' ids, so an attempt can be taken back.
 */
export async function takeAttempt(
  db: Database,
  limits: Array<[string, RateLimit]>,
  now: Date,
): Promise<RateLimitCheck & { hitIds: number[] }> {
  const judged = await Promise.all(
    limits.map(async ([key, limit]) => {
      const hitId = await recordHit(db, key, now);
      const times = await attemptTimesUpTo(db, key, hitId, limit.windowMs, now);
      // This attempt is among `times`: it may be the last one the limit allows.
      return { hitId, decision: rateLimitDecision({ ...limit, maxAttempts: limit.maxAttempts + 1 }, times, now.getTime()) };
    }),
  );
  const hitIds = judged.map((item) => item.hitId);
  const waits = judged.flatMap((item) => (item.decision.allowed ? [] : [item.decision.retryAfterMs]));
  return waits.length ? { allowed: false, retryAfterMs: Math.max(...waits), hitIds } : { allowed: true, hitIds };
}

/** Takes attempts back (a successful sign-in; an attempt refused before it tested anything). */
export async function forgetRateLimitHits(db: Database, ids: number[]) {
  if (ids.length) await db.delete(rateLimitHits).where(inArray(rateLimitHits.id, ids));
}

export async function clearRateLimitHits(db: Database, key: string) {
  await db.delete(rateLimitHits).where(eq(rateLimitHits.key, key));
}
