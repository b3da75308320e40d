// One-time links: a random token in the URL, its SHA-256 in D1 with a purpose and an expiry. A link
// works once: using it marks it used in the same conditional update that checks it.
import { and, eq, gt, isNull } from "drizzle-orm";

import { type AUTH_TOKEN_PURPOSES, authTokens } from "~/db/schema";
import { randomToken, sha256Hex } from "~/server/auth/tokens.server";
import type { Database } from "~/server/db/client.server";

export type LinkPurpose = (typeof AUTH_TOKEN_PURPOSES)[number];

/** A new link's token and the statement that stores it, for a batch that also queues the mail carrying it. */
export async function oneTimeLinkStatement(db: Database, userId: string, purpose: LinkPurpose, lifetimeMs: number, now: Date) {
  const token = randomToken();
  const statement = db.insert(authTokens).values({
    id: await sha256Hex(token),
    userId,
    purpose,
    createdAt: now,
    expiresAt: new Date(now.getTime() + lifetimeMs),
  });
  return { token, statement };
}

/** The user a still-valid link belongs to, without using it up (to show the form it leads to). */
export async function peekOneTimeLink(db: Database, token: string, purpose: LinkPurpose, now: Date) {
  const row = await db.query.authTokens.findFirst({
    columns: { userId: true },
    where: and(
      eq(authTokens.id, await sha256Hex(token)),
      eq(authTokens.purpose, purpose),
      isNull(authTokens.usedAt),
      gt(authTokens.expiresAt, now),
    ),
  });
  return row?.userId ?? null;
}

/** Uses the link up; returns its user, or null when it is unknown, expired, used or for another purpose. */
export async function redeemOneTimeLink(db: Database, token: string, purpose: LinkPurpose, now: Date) {
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.id, await sha256Hex(token)),
        eq(authTokens.purpose, purpose),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .returning({ userId: authTokens.userId });
  return row?.userId ?? null;
}
