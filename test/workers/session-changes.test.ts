// The count of session changes (migrations/0016, docs/decisions/0040): rooms trust the sessions they
// found alive while it holds, so every change that can end a session before its time must move it,
// whoever makes it, and being used must not (or every page view would make every room read again).
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { doctors, sessions } from "~/db/schema";
import { sessionChangeCount } from "~/server/db/room-connections.server";

import { db, signedIn } from "./fixtures";

const HOUR_MS = 60 * 60 * 1000;

async function movesTheCount(change: () => Promise<unknown>) {
  const before = await sessionChangeCount(db);
  await change();
  return (await sessionChangeCount(db)) !== before;
}

describe("the count of session changes", () => {
  it("is there from the migration", async () => {
    expect(await sessionChangeCount(db)).toEqual(expect.any(Number));
  });

  it("moves when a session is removed, or its end is moved earlier by any column", async () => {
    const { userId } = await signedIn("patient");
    const [session] = await db.select().from(sessions).where(eq(sessions.userId, userId));
    const bySession = eq(sessions.id, session!.id);
    expect(
      await movesTheCount(() =>
        db
          .update(sessions)
          .set({ expiresAt: new Date(session!.expiresAt.getTime() - HOUR_MS) })
          .where(bySession),
      ),
    ).toBe(true);
    expect(
      await movesTheCount(() =>
        db
          .update(sessions)
          .set({ lastSeenAt: new Date(session!.lastSeenAt.getTime() - HOUR_MS) })
          .where(bySession),
      ),
    ).toBe(true);
    expect(await movesTheCount(() => db.delete(sessions).where(bySession))).toBe(true);
  });

  it("moves when a session's row is replaced whole, not when one is added", async () => {
    const { userId } = await signedIn("patient");
    const [session] = await db.select().from(sessions).where(eq(sessions.userId, userId));
    const replaced = env.DB.prepare(
      "INSERT OR REPLACE INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)",
    );
    const earlier = session!.expiresAt.getTime() - HOUR_MS;
    expect(await movesTheCount(() => replaced.bind(session!.id, userId, Date.now(), Date.now(), earlier).run())).toBe(true);
    expect(await movesTheCount(() => signedIn("patient"))).toBe(false);
  });

  it("moves when a doctor's standing changes, or a doctor comes or goes", async () => {
    const { userId } = await signedIn("doctor");
    const byDoctor = eq(doctors.userId, userId);
    expect(await movesTheCount(() => db.update(doctors).set({ status: "inactive" }).where(byDoctor))).toBe(true);
    expect(await movesTheCount(() => db.update(doctors).set({ status: "active" }).where(byDoctor))).toBe(true);
    expect(await movesTheCount(() => db.delete(doctors).where(byDoctor))).toBe(true);
    expect(await movesTheCount(() => signedIn("doctor"))).toBe(true);
  });

  it("stays when a session is used or lasts longer, or a doctor's other details change", async () => {
    const { userId } = await signedIn("doctor");
    const [session] = await db.select().from(sessions).where(eq(sessions.userId, userId));
    const bySession = eq(sessions.id, session!.id);
    expect(
      await movesTheCount(() =>
        db
          .update(sessions)
          .set({ lastSeenAt: new Date(session!.lastSeenAt.getTime() + 1_000) })
          .where(bySession),
      ),
    ).toBe(false);
    expect(
      await movesTheCount(() =>
        db
          .update(sessions)
          .set({ expiresAt: new Date(session!.expiresAt.getTime() + HOUR_MS) })
          .where(bySession),
      ),
    ).toBe(false);
    expect(
      await movesTheCount(() => db.update(doctors).set({ status: "active", updatedAt: new Date() }).where(eq(doctors.userId, userId))),
    ).toBe(false);
  });
});
