// The count of session changes (migrations/0016 and 0017, docs/decisions/0040): rooms trust the sessions they
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

/** A signed-in person's session row, and whether a change to it (its end moved by `byMs`) moves the count. */
async function sessionOf(role: "patient" | "doctor") {
  const { userId } = await signedIn(role);
  const [session] = await db.select().from(sessions).where(eq(sessions.userId, userId));
  const { id, expiresAt, lastSeenAt } = session!;
  const moved = (column: "expiresAt" | "lastSeenAt", byMs: number) =>
    movesTheCount(() =>
      db
        .update(sessions)
        .set({ [column]: new Date((column === "expiresAt" ? expiresAt : lastSeenAt).getTime() + byMs) })
        .where(eq(sessions.id, id)),
    );
  return { userId, id, expiresAt, moved };
}

describe("the count of session changes", () => {
  it("is there from the migration", async () => {
    expect(await sessionChangeCount(db)).toEqual(expect.any(Number));
  });

  it("moves when a session is removed, or its end is moved earlier by any column", async () => {
    const session = await sessionOf("patient");
    expect(await session.moved("expiresAt", -HOUR_MS)).toBe(true);
    expect(await session.moved("lastSeenAt", -HOUR_MS)).toBe(true);
    expect(await movesTheCount(() => db.delete(sessions).where(eq(sessions.id, session.id)))).toBe(true);
  });

  it("moves when a session's row is replaced whole, not when one is added", async () => {
    const { userId, id, expiresAt } = await sessionOf("patient");
    const replaced = env.DB.prepare(
      "INSERT OR REPLACE INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)",
    );
    const earlier = expiresAt.getTime() - HOUR_MS;
    expect(await movesTheCount(() => replaced.bind(id, userId, Date.now(), Date.now(), earlier).run())).toBe(true);
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
    const session = await sessionOf("doctor");
    expect(await session.moved("lastSeenAt", 1_000)).toBe(false);
    expect(await session.moved("expiresAt", HOUR_MS)).toBe(false);
    const byDoctor = eq(doctors.userId, session.userId);
    expect(await movesTheCount(() => db.update(doctors).set({ status: "active", updatedAt: new Date() }).where(byDoctor))).toBe(false);
  });
});
