import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { authTokens, consultationFiles, consultations, doctors, mailOutbox, patientFeedback, rateLimitHits, sessions } from "~/db/schema";
import { DRAFT_LIFETIME_MS, SESSION_IDLE_TIMEOUT_MS } from "~/domain/constants";
import { findSessionUser } from "~/server/auth/session.server";
import { moveConsultation } from "~/server/consultations/move.server";
import { loadConfig } from "~/server/env.server";
import { HousekeepingFailed } from "~/server/jobs.server";
import { queuedMail } from "~/server/mail/mailer.server";

import worker from "../../server";
import { createConsultation, createUser, db, ORIGIN, signedIn } from "./fixtures";

describe("the environment", () => {
  it("runs the tests as APP_ENV=test, with the stand-ins on", () => {
    expect(loadConfig(env)).toMatchObject({ APP_ENV: "test", standInsEnabled: true });
  });

  it("refuses to start without a long enough session secret", () => {
    expect(() => loadConfig({ ...env, SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ ...env, APP_ENV: "staging" })).toThrow(/APP_ENV/);
  });

  it("answers /health once D1 is reachable", async () => {
    const response = await SELF.fetch(`${ORIGIN}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });
});

describe("the database enforces the data model", () => {
  /** The write fails, and D1's own message (drizzle wraps it as the cause) names `constraint`. */
  async function refuses(write: () => Promise<unknown>, constraint: RegExp) {
    const error: unknown = await write().then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error, "the write should have been refused").toBeInstanceOf(Error);
    expect(String((error as Error).cause ?? error)).toMatch(constraint);
  }

  it("refuses unknown statuses and priorities, and titles over 100 characters", async () => {
    const patientId = await createUser("patient");
    await refuses(() => createConsultation(patientId, "archived" as never), /consultations_status_valid/);
    await refuses(() => createConsultation(patientId, "pending", { priority: "low" as never }), /consultations_priority_valid/);
    await refuses(() => createConsultation(patientId, "pending", { title: "x".repeat(101) }), /consultations_title_length/);
    await refuses(() => createConsultation(patientId, "pending", { mainConcern: "   " }), /main_concern_present/);
  });

  it("ties the doctor to the status: none in the queue, one from acceptance on", async () => {
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    await refuses(() => createConsultation(patientId, "pending", { doctorId }), /doctor_matches_status/);
    await refuses(() => createConsultation(patientId, "in_progress"), /doctor_matches_status/);
  });

  it("keeps ratings within 1 to 5 and complete contact details", async () => {
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patientId, "completed", { doctorId });
    const feedback = { consultationId: consultation.id, patientId, doctorId };
    await refuses(() => db.insert(patientFeedback).values({ ...feedback, rating: 6 }), /rating_range/);
    await refuses(() => db.insert(patientFeedback).values({ ...feedback, rating: 0 }), /rating_range/);
    await refuses(() => db.insert(patientFeedback).values({ ...feedback, rating: 4, allowContact: true }), /contact_complete/);
    await db
      .insert(patientFeedback)
      .values({ ...feedback, rating: 5, allowContact: true, contactMethod: "telegram", contactValue: "@hana" });
    await refuses(() => db.insert(patientFeedback).values({ ...feedback, rating: 5 }), /UNIQUE/);
  });

  it("refuses negative experience and unknown doctor statuses", async () => {
    const doctorId = await createUser("doctor");
    await refuses(() => db.update(doctors).set({ experienceYears: -1 }).where(eq(doctors.userId, doctorId)), /experience_range/);
    await refuses(
      () =>
        db
          .update(doctors)
          .set({ status: "suspended" as never })
          .where(eq(doctors.userId, doctorId)),
      /doctors_status_valid/,
    );
  });

  it("refuses rows that point at nobody", async () => {
    await refuses(() => createConsultation(crypto.randomUUID(), "pending"), /FOREIGN KEY/);
  });

  it("has an index for the doctors' queue", async () => {
    const plan = await db.all<{ detail: string }>(
      sql`EXPLAIN QUERY PLAN SELECT id FROM consultations WHERE status = 'pending' ORDER BY priority, created_at`,
    );
    expect(plan.map((row) => row.detail).join(" ")).toContain("consultations_queue_idx");
  });
});

describe("consultation moves", () => {
  it("let exactly one of many doctors accepting at once win", async () => {
    const patientId = await createUser("patient");
    const consultation = await createConsultation(patientId, "pending");
    const doctorIds = await Promise.all(Array.from({ length: 10 }, () => createUser("doctor")));
    const outcomes = await Promise.all(
      doctorIds.map((userId) =>
        moveConsultation(db, {
          consultationId: consultation.id,
          move: "accept",
          actor: { kind: "user", userId, role: "doctor" },
          now: new Date(),
        }),
      ),
    );
    const winners = outcomes.filter((outcome) => outcome.ok);
    expect(winners).toHaveLength(1);
    const stored = await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) });
    expect(stored?.status).toBe("accepted_awaiting_payment");
    expect(winners[0]?.ok && winners[0].consultation.doctorId).toBe(stored?.doctorId);
    expect(outcomes.filter((outcome) => !outcome.ok).every((o) => !o.ok && ["lost_race", "wrong_status"].includes(o.reason))).toBe(true);
  });

  it("change nothing when the state machine refuses", async () => {
    const patientId = await createUser("patient");
    const consultation = await createConsultation(patientId, "pending");
    const otherPatient = await createUser("patient");
    const outcome = await moveConsultation(db, {
      consultationId: consultation.id,
      move: "withdraw",
      actor: { kind: "user", userId: otherPatient, role: "patient" },
      now: new Date(),
    });
    expect(outcome).toMatchObject({ ok: false, reason: "not_permitted" });
    const stored = await db.query.consultations.findFirst({ where: eq(consultations.id, consultation.id) });
    expect(stored).toEqual(consultation);
  });
});

describe("files in R2", () => {
  it("are written and read back byte for byte, with their content type", async () => {
    const key = `photos/${crypto.randomUUID()}`;
    const bytes = crypto.getRandomValues(new Uint8Array(2048));
    await env.FILES.put(key, bytes, { httpMetadata: { contentType: "image/png" } });
    const object = await env.FILES.get(key);
    expect(object?.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes);
  });
});

describe("sessions", () => {
  it("lapse after the idle timeout", async () => {
    const longAgo = new Date(Date.now() - SESSION_IDLE_TIMEOUT_MS - 1_000);
    const user = await signedIn("patient", { at: longAgo });
    const request = new Request(ORIGIN, { headers: { Cookie: user.cookie } });
    expect(await findSessionUser(db, request, new Date())).toBeNull();
    expect(await db.query.sessions.findFirst({ where: eq(sessions.userId, user.userId) })).toBeUndefined();
  });

  it("know the user's role and, for doctors, their status", async () => {
    const doctor = await signedIn("doctor", { doctorStatus: "inactive" });
    const request = new Request(ORIGIN, { headers: { Cookie: doctor.cookie } });
    expect(await findSessionUser(db, request, new Date())).toMatchObject({
      userId: doctor.userId,
      role: "doctor",
      doctorStatus: "inactive",
    });
  });

  it("send a signed-in visitor from the landing page to their dashboard", async () => {
    const doctor = await signedIn("doctor");
    const response = await SELF.fetch(`${ORIGIN}/`, { headers: { Cookie: doctor.cookie }, redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/doctor/dashboard");
  });
});

describe("the scheduled housekeeping", () => {
  it("returns a consultation whose payment window closed unnoticed to the queue", async () => {
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    const overdue = await createConsultation(patientId, "accepted_awaiting_payment", {
      doctorId,
      acceptedAt: new Date(Date.now() - 20 * 60_000),
      paymentDeadlineAt: new Date(Date.now() - 5 * 60_000),
    });
    const current = await createConsultation(patientId, "accepted_awaiting_payment", {
      doctorId,
      acceptedAt: new Date(),
      paymentDeadlineAt: new Date(Date.now() + 10 * 60_000),
    });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, overdue.id) })).toMatchObject({
      status: "pending",
      doctorId: null,
    });
    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, current.id) })).toMatchObject({
      status: "accepted_awaiting_payment",
      doctorId,
    });
  });

  it("removes expired one-time links and rate-limit attempts that no longer count", async () => {
    const userId = await createUser("patient");
    const now = Date.now();
    const { createOneTimeLink } = await import("./auth-helpers");
    await createOneTimeLink(db, userId, "password_reset", 60_000, new Date(now - 10 * 60_000));
    const live = await createOneTimeLink(db, userId, "password_reset", 60 * 60_000, new Date(now));
    await db.insert(rateLimitHits).values([
      { key: `test:${userId}`, hitAt: new Date(now - 2 * 24 * 60 * 60_000) },
      { key: `test:${userId}`, hitAt: new Date(now - 60_000) },
    ]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(now), cron: "*/15 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await db.$count(authTokens, eq(authTokens.userId, userId))).toBe(1);
    expect(await db.$count(rateLimitHits, eq(rateLimitHits.key, `test:${userId}`))).toBe(1);
    expect(live).toBeTruthy();
  });

  it("deletes drafts older than a day with their photos, and keeps everything else", async () => {
    const patientId = await createUser("patient");
    const now = Date.now();
    const stale = await createConsultation(patientId, "awaiting_assets", { createdAt: new Date(now - DRAFT_LIFETIME_MS - 60_000) });
    const fresh = await createConsultation(patientId, "awaiting_assets", { createdAt: new Date(now - 60_000) });
    const oldButSubmitted = await createConsultation(patientId, "pending", { createdAt: new Date(now - 2 * DRAFT_LIFETIME_MS) });
    const keys = { stale: `photos/${crypto.randomUUID()}`, fresh: `photos/${crypto.randomUUID()}` };
    for (const [consultation, key] of [
      [stale, keys.stale],
      [fresh, keys.fresh],
    ] as const) {
      await env.FILES.put(key, new Uint8Array([0xff, 0xd8, 0xff]));
      await db.insert(consultationFiles).values({
        consultationId: consultation.id,
        uploaderId: patientId,
        kind: "photo",
        storageKey: key,
        contentType: "image/jpeg",
        sizeBytes: 3,
      });
    }

    const controller = createScheduledController({ scheduledTime: new Date(now), cron: "*/15 * * * *" });
    const ctx = createExecutionContext();
    await worker.scheduled(controller, env, ctx);
    await waitOnExecutionContext(ctx);

    const remaining = await db.select({ id: consultations.id }).from(consultations).where(eq(consultations.patientId, patientId));
    expect(remaining.map((row) => row.id).sort()).toEqual([fresh.id, oldButSubmitted.id].sort());
    expect(await env.FILES.head(keys.stale)).toBeNull();
    expect(await env.FILES.head(keys.fresh)).not.toBeNull();
    expect(await db.query.consultationFiles.findFirst({ where: eq(consultationFiles.storageKey, keys.stale) })).toBeUndefined();
  });

  it("runs every step when one fails, keeping what that step guards, and fails the invocation naming it", async () => {
    const patientId = await createUser("patient");
    const now = Date.now();
    const stale = await createConsultation(patientId, "awaiting_assets", { createdAt: new Date(now - DRAFT_LIFETIME_MS - 60_000) });
    const key = `photos/${crypto.randomUUID()}`;
    await env.FILES.put(key, new Uint8Array([0xff, 0xd8, 0xff]));
    await db.insert(consultationFiles).values({
      consultationId: stale.id,
      uploaderId: patientId,
      kind: "photo",
      storageKey: key,
      contentType: "image/jpeg",
      sizeBytes: 3,
    });
    // Mail a request queued and never sent: the job's last step delivers it.
    const { id: mailId, statement } = queuedMail(db, { to: "after-a-failure@example.com", subject: "Queued", text: "Body" }, new Date(now));
    await statement;
    const refused = vi.spyOn(env.FILES, "delete").mockRejectedValue(new Error("R2 is down"));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: new Date(now), cron: "*/15 * * * *" }), env, ctx);
      const failure: unknown = await waitOnExecutionContext(ctx).then(
        () => null,
        (error: unknown) => error,
      );

      expect(failure).toBeInstanceOf(HousekeepingFailed);
      expect((failure as HousekeepingFailed).steps).toEqual(["deleteDrafts"]);
      expect((failure as Error).message).toMatch(/deleteDrafts/);
      expect(logged.mock.calls.map((call) => JSON.parse(String(call[0])) as unknown)).toContainEqual({
        event: "housekeeping_step_failed",
        step: "deleteDrafts",
        error: "Error: R2 is down",
      });
      // The failed step kept its draft and photo (objects go first); the steps after it still ran.
      expect(refused).toHaveBeenCalled();
      expect(await db.$count(consultations, eq(consultations.id, stale.id))).toBe(1);
      expect(await env.FILES.head(key)).not.toBeNull();
      expect(await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, mailId) })).toMatchObject({ status: "sent" });
    } finally {
      refused.mockRestore();
      logged.mockRestore();
    }
  });
});
