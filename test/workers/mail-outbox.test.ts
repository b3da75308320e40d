import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";

import { mailOutbox, notifications } from "~/db/schema";
import { mailRetryDelayMs, MAX_MAIL_ATTEMPTS } from "~/domain/mail-retries";
import { loadConfig } from "~/server/env.server";
import { deliverDueMail, type MailMessage, queuedMail } from "~/server/mail/mailer.server";

import worker from "../../server";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, signedIn } from "./fixtures";

const ACCEPTED_SUBJECT = "A dermatologist accepted your Qoda request";
const production = () => ({
  ...loadConfig(env),
  standInsEnabled: false,
  MAIL_API_KEY: "re_test_key",
  MAIL_FROM: "Qoda <no-reply@qoda.et>",
});
const mailTo = (email: string) => db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, email));
const patientEmail = (patientId: string) => `patient-${patientId}@qoda.test`;

/** A message queued on its own, as a request queues it with its change; its outbox id. */
async function queueMail(message: MailMessage) {
  const { id, statement } = queuedMail(db, message, new Date());
  await statement;
  return id;
}

/** The mail provider, as the test wants it to answer; every call is kept. */
function provider(answer: () => Response | Promise<Response>) {
  const calls: Array<{ to: string; idempotencyKey: string | null }> = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as { to: string[] };
    calls.push({ to: body.to[0]!, idempotencyKey: new Headers(init?.headers).get("Idempotency-Key") });
    return answer();
  });
  return calls;
}

async function runScheduledJob(at: Date) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: at, cron: "*/15 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the mail a move causes", () => {
  it("is written in the move's own batch: of doctors accepting at once, the one move queues the one email and notification", async () => {
    const patientId = await createUser("patient");
    const waiting = await createConsultation(patientId, "pending");
    const doctors = await Promise.all([signedIn("doctor"), signedIn("doctor"), signedIn("doctor")]);
    const answers = await Promise.all(
      doctors.map((doctor) => new Visitor(doctor.cookie).post(`/doctor/consultation/${waiting.id}`, { intent: "accept" })),
    );
    expect(answers.every((answer) => answer.status < 500)).toBe(true);
    // Written before the answer went out: there the moment the accept returns, whatever happens after.
    const mails = await mailTo(patientEmail(patientId));
    expect(mails.map((mail) => mail.subject)).toEqual([ACCEPTED_SUBJECT]);
    const told = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, patientId), eq(notifications.kind, "consultation_accepted")));
    expect(told).toHaveLength(1);
    expect(told[0]!.createdAt.getTime()).toBe(mails[0]!.createdAt.getTime());
  });

  it("survives a sender that never ran: the scheduled job delivers what a request queued", async () => {
    // The request wrote its change and its mail, then died before delivering it.
    const id = await queueMail({ to: "crashed@example.com", subject: "Queued before a crash", text: "Body" });
    expect((await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) }))!.status).toBe("queued");
    await runScheduledJob(new Date());
    expect(await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) })).toMatchObject({ status: "sent", attempts: 1 });
  });
});

describe("delivery", () => {
  it("retries a provider failure later, waiting longer each time, and marks it failed for admins after the last attempt", async () => {
    const config = production();
    const id = await queueMail({ to: "flaky@example.com", subject: "Hello", text: "Body" });
    const calls = provider(() => new Response("unavailable", { status: 503 }));
    let at = (await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) }))!.nextAttemptAt;
    for (let attempt = 1; attempt <= MAX_MAIL_ATTEMPTS; attempt++) {
      // Not due before its wait is over: nothing is sent early.
      const early = await deliverDueMail(db, config, new Date(at.getTime() - 1), { ids: [id] });
      expect(early).toEqual({ sent: 0, retrying: 0, failed: 0 });
      const report = await deliverDueMail(db, config, at, { ids: [id] });
      const row = (await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) }))!;
      expect(row.attempts).toBe(attempt);
      expect(row.lastError).toContain("503");
      if (attempt < MAX_MAIL_ATTEMPTS) {
        expect(report).toEqual({ sent: 0, retrying: 1, failed: 0 });
        expect(row.status).toBe("queued");
        expect(row.nextAttemptAt.getTime()).toBe(at.getTime() + mailRetryDelayMs(attempt));
        at = row.nextAttemptAt;
      } else {
        expect(report).toEqual({ sent: 0, retrying: 0, failed: 1 });
        expect(row.status).toBe("failed");
      }
    }
    expect(calls).toHaveLength(MAX_MAIL_ATTEMPTS);
    // Every attempt asked the provider to send it once, by the same key.
    expect(new Set(calls.map((call) => call.idempotencyKey))).toEqual(new Set([id]));
  });

  it("sends a message once when two senders run at the same moment", async () => {
    const config = production();
    const id = await queueMail({ to: "once@example.com", subject: "Once", text: "Body" });
    const calls = provider(() => Response.json({ id: "re_once" }));
    const now = new Date();
    const reports = await Promise.all([deliverDueMail(db, config, now, { ids: [id] }), deliverDueMail(db, config, now, { ids: [id] })]);
    expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(1);
    expect(calls).toHaveLength(1);
    expect(await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) })).toMatchObject({
      status: "sent",
      providerMessageId: "re_once",
    });
    // A later run finds nothing left to send.
    expect(await deliverDueMail(db, config, new Date(now.getTime() + 60 * 60_000), { ids: [id] })).toEqual({
      sent: 0,
      retrying: 0,
      failed: 0,
    });
  });

  it("takes back a message whose sender died mid-send once its claim has lapsed", async () => {
    const config = production();
    const id = await queueMail({ to: "lease@example.com", subject: "Lease", text: "Body" });
    const now = new Date();
    // A sender claimed it and died: the claim holds for a while, then the message is due again.
    await db
      .update(mailOutbox)
      .set({ status: "sending", attempts: 1, nextAttemptAt: new Date(now.getTime() + 5 * 60_000) })
      .where(eq(mailOutbox.id, id));
    provider(() => Response.json({ id: "re_lease" }));
    expect((await deliverDueMail(db, config, now, { ids: [id] })).sent).toBe(0);
    expect((await deliverDueMail(db, config, new Date(now.getTime() + 5 * 60_000), { ids: [id] })).sent).toBe(1);
    expect(await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) })).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("admins", () => {
  it("see email given up on with the provider's last answer, and can have it tried again, audited", async () => {
    const config = production();
    const to = `given-up-${crypto.randomUUID()}@example.com`;
    const id = await queueMail({ to, subject: "Your payment link", text: "Body" });
    provider(() => new Response("mailbox unavailable", { status: 422 }));
    let at = new Date();
    for (let attempt = 0; attempt < MAX_MAIL_ATTEMPTS; attempt++) {
      await deliverDueMail(db, config, at, { ids: [id] });
      at = (await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) }))!.nextAttemptAt;
    }
    vi.restoreAllMocks();
    const admin = await signedIn("admin");
    const visitor = new Visitor(admin.cookie);
    const page = await (await visitor.get("/admin/mail")).text();
    expect(page).toContain("Undelivered email");
    expect(page).toContain(to);
    expect(page).toContain("mailbox unavailable");
    expect(page).toContain(`${MAX_MAIL_ATTEMPTS} attempts`);
    const amharic = await (await visitor.get("/admin/mail?lng=am")).text();
    expect(amharic).toContain("ያልደረሱ ኢሜይሎች");

    const retried = await visitor.post("/admin/mail", { intent: "retry", id });
    expect(retried.status).toBe(302);
    // A double click: the second finds it no longer failed, and changes nothing.
    expect((await visitor.post("/admin/mail", { intent: "retry", id })).status).toBe(302);
    expect(await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) })).toMatchObject({ status: "queued", attempts: 0 });
    const audited = await db.query.auditLog.findMany({
      where: (log, { and, eq }) => and(eq(log.action, "admin.mail_retried"), eq(log.targetId, id)),
    });
    expect(audited).toHaveLength(1);
    // Forged ids are a clear 400, never a 500.
    expect((await visitor.post("/admin/mail", { intent: "retry", id: "not-an-id" })).status).toBe(400);
  });
});
