import { eq } from "drizzle-orm";

import { consultations } from "~/db/schema";
import { type DecisionOutcome, whyNotWaiting } from "~/domain/consultation-decisions";
import type { Database } from "~/server/db/client.server";

import type { MoveOutcome } from "./move.server";

/** A move that did not happen, as the person who asked for it should hear it. */
export async function refusalOf(
  db: Database,
  consultationId: string,
  outcome: Extract<MoveOutcome, { ok: false }>,
): Promise<DecisionOutcome> {
  if (outcome.reason === "not_found" || outcome.reason === "not_permitted" || outcome.reason === "reserved")
    return { ok: false, reason: outcome.reason };
  // Refused for its status, or beaten by another caller: what it is now says why.
  const now =
    outcome.reason === "lost_race"
      ? await db.query.consultations.findFirst({ where: eq(consultations.id, consultationId) })
      : outcome.before;
  return { ok: false, reason: now ? whyNotWaiting(now) : "not_found" };
}
