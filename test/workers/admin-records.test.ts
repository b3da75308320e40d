// The admins' record screens: the overview's figures against rows seeded here, feedback search, the
// audit log's filters and pages, payments (late first; mark refunded exactly once under double clicks
// and two admins), and the consultation view that opens only with an audited reason. Every loader and
// action refuses everyone but admins and changes nothing for them.
import { env } from "cloudflare:test";
import { and, count, eq, sql } from "drizzle-orm";
import { getServerByName } from "partyserver";
import { beforeEach, describe, expect, it } from "vitest";

import {
  auditLog,
  chats,
  consultationFiles,
  consultations,
  ledgerEntries,
  mailOutbox,
  notifications,
  patientFeedback,
  payments,
  profiles,
  refunds,
  users,
} from "~/db/schema";
import { OPENING_GRANT_MS } from "~/domain/admin-records";
import { paymentCaptured } from "~/domain/ledger";
import { overviewFigures } from "~/server/admin/overview.server";
import { balanceOf, ledgerEntryStatements } from "~/server/money/ledger.server";

import type { ConsultationRoom } from "../../party/consultation";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, signedIn } from "./fixtures";
import { PNG_BYTES } from "./photos";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

// The tests of this file share one database (each file has its own): every test starts from no
// consultations, payments, feedback or audit entries, so the figures it checks are its own rows.
beforeEach(async () => {
  // The ledger keeps what it recorded for ever (its rows refuse deletion): their payments and consultations stay.
  const inTheBooks = (column: "payment_id" | "consultation_id") =>
    sql`id NOT IN (SELECT ${sql.raw(column)} FROM ${ledgerEntries} WHERE ${sql.raw(column)} IS NOT NULL)`;
  await db.batch([
    db.delete(patientFeedback),
    db.delete(refunds),
    db.delete(payments).where(inTheBooks("payment_id")),
    db.delete(consultationFiles),
    db.delete(notifications),
    db.delete(chats),
    db.delete(consultations).where(and(inTheBooks("consultation_id"), sql`id NOT IN (SELECT consultation_id FROM ${payments})`)),
    db.delete(auditLog),
  ]);
});

/** Names a user; an address given as `local@` gets a domain of its own, since addresses are unique. */
async function named(userId: string, firstName: string, lastName: string, email?: string) {
  await db.update(profiles).set({ firstName, lastName, phone: "+251911223344" }).where(eq(profiles.userId, userId));
  if (!email) return "";
  const address = `${email}x${crypto.randomUUID().slice(0, 6)}.example.com`;
  await db.update(users).set({ email: address }).where(eq(users.id, userId));
  return address;
}

async function admin() {
  const { userId, cookie } = await signedIn("admin");
  return { userId, visitor: new Visitor(cookie) };
}

async function addPayment(
  consultationId: string,
  patientId: string,
  extra: Partial<typeof payments.$inferInsert> & { minutesAgo?: number } = {},
) {
  const { minutesAgo = 10, ...rest } = extra;
  const at = new Date(Date.now() - minutesAgo * MIN);
  const [row] = await db
    .insert(payments)
    .values({
      consultationId,
      patientId,
      txRef: `qoda-${crypto.randomUUID()}`,
      provider: "sandbox",
      amountSantim: 15_000,
      status: "paid",
      createdAt: at,
      paidAt: at,
      updatedAt: at,
      ...rest,
    })
    .returning();
  return row!;
}

const auditCount = async (action: string, targetId?: string) =>
  (
    await db
      .select({ rows: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, action), targetId ? eq(auditLog.targetId, targetId) : undefined))
  )[0]!.rows;

const text = (html: string) => html.replace(/<!-- -->/g, "");

describe("the overview", () => {
  it("shows figures computed from the rows in the database", async () => {
    const now = Date.now();
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    const consultation = (status: Parameters<typeof createConsultation>[1], createdAgo: number, accept?: number, pay?: number) =>
      createConsultation(patientId, status, {
        doctorId: ["pending", "cancelled"].includes(status) ? null : doctorId,
        createdAt: new Date(now - createdAgo),
        acceptedAt: accept === undefined ? null : new Date(now - createdAgo + accept),
        startedAt: pay === undefined || accept === undefined ? null : new Date(now - createdAgo + accept + pay),
      });
    // Request to acceptance: 10, 20, 30, 40 min (median 25); acceptance to payment: 5, 7, 10 min (median 7).
    const done1 = await consultation("completed", 2 * DAY, 10 * MIN, 5 * MIN);
    const done2 = await consultation("completed", 10 * DAY, 20 * MIN, 7 * MIN);
    const running = await consultation("in_progress", 60 * MIN, 30 * MIN, 10 * MIN);
    await consultation("accepted_awaiting_payment", 50 * MIN, 40 * MIN);
    await consultation("cancelled", 40 * DAY);
    // Created this instant: today's bar holds it at any time of day (in Addis Ababa, 5 minutes ago can be yesterday).
    await consultation("pending", 0);
    await db.insert(patientFeedback).values([
      { consultationId: done1.id, patientId, doctorId, rating: 5 },
      { consultationId: done2.id, patientId, doctorId, rating: 2 },
    ]);
    for (const paid of [done1, done2, running]) await addPayment(paid.id, patientId);
    await addPayment(running.id, patientId, { status: "paid_after_expiry", needsAdminReview: true, amountSantim: 15_000 });
    const someone = await createUser("admin");
    await addPayment(running.id, patientId, {
      status: "paid_after_expiry",
      needsAdminReview: true,
      refundedAt: new Date(),
      refundedBy: someone,
    });

    const figures = await overviewFigures(db, new Date(now));
    expect(Object.fromEntries(figures.byStatus.map((row) => [row.status, row.total]))).toEqual({
      awaiting_assets: 0,
      pending: 1,
      accepted_awaiting_payment: 1,
      in_progress: 1,
      completed: 2,
      cancelled: 1,
    });
    expect(figures.total).toBe(6);
    expect(figures.created).toEqual({ lastDay: 3, last7Days: 4, last30Days: 5 });
    expect(figures.perDay).toHaveLength(30);
    expect(figures.perDay.reduce((sum, day) => sum + day.total, 0)).toBe(5);
    expect(figures.perDay.at(-1)!.total).toBeGreaterThanOrEqual(1);
    expect(figures.medianToAcceptMs).toBe(25 * MIN);
    expect(figures.medianToPaymentMs).toBe(7 * MIN);
    expect(figures.completion).toEqual({ rate: 2 / 3, completed: 2, finished: 3 });
    expect(figures.rating).toEqual({ average: 3.5, count: 2 });
    expect(figures.payments).toEqual({ received: { count: 3, santim: 45_000 }, awaitingRefund: { count: 1, santim: 15_000 } });

    const { visitor } = await admin();
    const page = await visitor.get("/admin/overview");
    expect(page.status).toBe(200);
    const html = text(await page.text());
    expect(html).toContain('data-testid="figure-total">6<');
    expect(html).toContain('data-testid="figure-median-accept">25 min<');
    expect(html).toContain('data-testid="figure-median-payment">7 min<');
    expect(html).toContain('data-testid="figure-completion">67%<');
    expect(html).toContain('data-testid="figure-rating">3.5<');
    expect(html).toContain('data-testid="figure-received">450 ETB<');
    expect(html).toContain('data-testid="figure-awaiting-refund">1<');
    expect(html).toContain('role="img"');
    expect(html).toMatch(/aria-label="5 new consultations in the last 30 days; the busiest day was [^"]+"/);

    const amharic = text(await (await visitor.get("/admin/overview?lng=am")).text());
    expect(amharic).toContain("የመድረኩ አጠቃላይ እይታ");
    expect(amharic).toContain('data-testid="figure-median-accept">25 ደቂቃ<');
  });

  it("says there is no data yet on an empty platform", async () => {
    const figures = await overviewFigures(db, new Date());
    expect(figures.medianToAcceptMs).toBeNull();
    expect(figures.completion.rate).toBeNull();
    expect(figures.rating.average).toBeNull();
    const html = text(await (await (await admin()).visitor.get("/admin/overview")).text());
    expect(html).toContain('data-testid="figure-median-accept">No data yet<');
    expect(html).toContain("No new consultations in the last 30 days.");
  });
});

describe("feedback", () => {
  async function seedFeedback() {
    const hana = await createUser("patient");
    await named(hana, "Hana", "Bekele", "hana.b@");
    const dawit = await createUser("patient");
    await named(dawit, "Dawit", "Alemu", "dawit.a@");
    const abebe = await createUser("doctor");
    await named(abebe, "Abebe", "Kebede", "dr.abebe.k@");
    const selam = await createUser("doctor");
    await named(selam, "Selam", "Girma", "dr.selam.g@");
    const first = await createConsultation(hana, "completed", { doctorId: abebe });
    const second = await createConsultation(dawit, "completed", { doctorId: selam });
    await db.insert(patientFeedback).values([
      {
        consultationId: first.id,
        patientId: hana,
        doctorId: abebe,
        rating: 5,
        feedbackMessage: "The shampoo worked wonders",
        allowContact: true,
        contactMethod: "telegram",
        contactValue: "@hana_b",
        createdAt: new Date(Date.now() - DAY),
      },
      { consultationId: second.id, patientId: dawit, doctorId: selam, rating: 2, feedbackMessage: "Slow answers", createdAt: new Date() },
    ]);
    return { first, second };
  }

  it("lists every feedback newest first with both people's names and contacts", async () => {
    const { first } = await seedFeedback();
    const { visitor } = await admin();
    const html = text(await (await visitor.get("/admin/feedbacks")).text());
    expect(html.indexOf("Slow answers")).toBeLessThan(html.indexOf("The shampoo worked wonders"));
    for (const shown of ["Hana Bekele", "hana.b@", "+251911223344", "Abebe Kebede", "dr.abebe.k@", "Telegram: @hana_b"])
      expect(html).toContain(shown);
    expect(html).toContain("Did not ask to be contacted");
    expect(html).toContain(`href="/admin/consultations/${first.id}"`);
  });

  it("searches names, emails and messages on the server, and filters by rating", async () => {
    await seedFeedback();
    const { visitor } = await admin();
    const rows = async (query: string) => {
      const html = await (await visitor.get(`/admin/feedbacks?${query}`)).text();
      return [...html.matchAll(/data-testid="feedback-message">([^<]*)</g)].map((match) => match[1]);
    };
    expect(await rows("q=SELAM.G%40")).toEqual(["Slow answers"]);
    expect(await rows("q=wonders")).toEqual(["The shampoo worked wonders"]);
    expect(await rows("q=hana bekele")).toEqual([]);
    expect(await rows("q=Dawit")).toEqual(["Slow answers"]);
    expect(await rows("rating=5")).toEqual(["The shampoo worked wonders"]);
    expect(await rows("rating=9")).toHaveLength(2);
    // A pasted long text, a wildcard and control characters are searched literally, never an error.
    expect(await rows(`q=${encodeURIComponent("%_\u0000".repeat(80))}`)).toEqual([]);
  });
});

describe("the audit log", () => {
  it("filters by actor, by patient (their account, consultations and photos) and by action", async () => {
    const auditor = await createUser("admin");
    await named(auditor, "Auditor", "Alpha", "auditor.alpha@");
    const patient = await createUser("patient");
    await named(patient, "Tigist", "Haile", "tigist.h@");
    const other = await createUser("patient");
    const theirs = await createConsultation(patient, "pending");
    const notTheirs = await createConsultation(other, "pending");
    const [photo] = await db
      .insert(consultationFiles)
      .values({
        consultationId: theirs.id,
        uploaderId: patient,
        kind: "photo",
        storageKey: `k/${crypto.randomUUID()}`,
        contentType: "image/png",
        sizeBytes: 10,
      })
      .returning();
    await db.insert(auditLog).values([
      { actorId: patient, action: "auth.sign_in.success", targetType: "user", targetId: patient, ipAddress: "203.0.113.7" },
      { actorId: auditor, action: "consultation.viewed", targetType: "consultation", targetId: theirs.id },
      { actorId: auditor, action: "file.viewed", targetType: "file", targetId: photo!.id },
      {
        actorId: auditor,
        action: "admin.consultation_opened",
        targetType: "consultation",
        targetId: notTheirs.id,
        details: { reason: "Billing query" },
      },
      { actorId: other, action: "auth.sign_out", targetType: "user", targetId: other },
      { actorId: null, action: "legacy.something", targetType: "thing", targetId: "x" },
    ]);
    const { visitor } = await admin();
    const actions = async (query: string) => {
      const html = await (await visitor.get(`/admin/audit?${query}`)).text();
      return [...html.matchAll(/data-testid="audit-row" data-action="([^"]+)"/g)].map((match) => match[1]);
    };
    expect(await actions("actor=auditor.alpha")).toEqual(["admin.consultation_opened", "file.viewed", "consultation.viewed"]);
    expect(await actions("actor=Auditor%20Alpha")).toHaveLength(3);
    expect(await actions("patient=tigist")).toEqual(["file.viewed", "consultation.viewed", "auth.sign_in.success"]);
    expect(await actions(`patient=${patient}`)).toHaveLength(3);
    expect(await actions("action=file.viewed")).toEqual(["file.viewed"]);
    expect(await actions("actor=auditor.alpha&action=consultation.viewed")).toEqual(["consultation.viewed"]);
    // An action that is not one of the app's own is no filter at all.
    expect((await actions("action=%3Cscript%3E")).length).toBeGreaterThanOrEqual(6);

    const html = text(await (await visitor.get("/admin/audit?actor=auditor.alpha")).text());
    expect(html).toContain("Consultation opened by an admin");
    expect(html).toContain("Reason: Billing query");
    expect(html).toContain(`href="/admin/consultations/${notTheirs.id}"`);
    const all = text(await (await visitor.get("/admin/audit")).text());
    expect(all).toContain("203.0.113.7");
    // An action without a label shows its code.
    expect(all).toContain('data-testid="audit-action">legacy.something<');
    expect(text(await (await visitor.get("/admin/audit?action=file.viewed&lng=am")).text())).toContain("ፎቶ ታይቷል");
  });

  it("words the codes the app writes into details, with ፦ after each Amharic label", async () => {
    const patient = await createUser("patient");
    await db.insert(auditLog).values([
      {
        actorId: patient,
        action: "escrow.released",
        targetType: "consultation",
        targetId: "c1",
        details: { by: "patient", amountSantim: 15_000 },
      },
      {
        actorId: null,
        action: "escrow.released",
        targetType: "consultation",
        targetId: "c2",
        details: { by: "schedule", amountSantim: 15_000 },
      },
      { actorId: patient, action: "dispute.opened", targetType: "consultation", targetId: "c3", details: { reason: "not_helpful" } },
      {
        actorId: null,
        action: "dispute.resolved",
        targetType: "consultation",
        targetId: "c3",
        details: { resolution: "refund_part", refundSantim: 5_000 },
      },
    ]);
    const { visitor } = await admin();
    const details = async (query: string) =>
      [...text(await (await visitor.get(`/admin/audit?${query}`)).text()).matchAll(/data-testid="audit-details"[^>]*>([^<]*)</g)].map(
        (match) => match[1],
      );
    expect(await details("action=escrow.released")).toEqual([
      "Released by: on schedule · Amount: 150 ETB",
      "Released by: the patient · Amount: 150 ETB",
    ]);
    expect(await details("action=escrow.released&lng=am")).toEqual(["የለቀቀው፦ በራስ-ሰር (በጊዜ ሰሌዳ) · መጠን፦ 150 ብር", "የለቀቀው፦ ታካሚው · መጠን፦ 150 ብር"]);
    expect(await details("action=dispute.opened&lng=am")).toEqual(["ምክንያት፦ ምክክሩ አልጠቀመም"]);
    expect(await details("action=dispute.resolved&lng=am")).toEqual(["ውሳኔ፦ ከፊሉን ለታካሚው ተመላሽ ያድርጉ፣ ቀሪውን ለሐኪሙ ይልቀቁ · ተመላሽ የተደረገ፦ 50 ብር"]);
  });

  it("pages on the server, at most 50 entries a page", async () => {
    const actor = await createUser("doctor");
    // D1 takes 100 bound values a statement: 15 rows of 5 at a time.
    for (let batch = 0; batch < 4; batch++)
      await db.insert(auditLog).values(
        Array.from({ length: 15 }, (_, index) => ({
          actorId: actor,
          action: "consultation.viewed",
          targetType: "consultation",
          targetId: `c-${batch}-${index}`,
        })),
      );
    const { visitor } = await admin();
    const rowsOf = (html: string) => [...html.matchAll(/data-testid="audit-row"/g)].length;
    const first = await (await visitor.get(`/admin/audit?actor=${actor}`)).text();
    expect(rowsOf(first)).toBe(50);
    expect(first).toContain('rel="next"');
    const second = await (await visitor.get(`/admin/audit?actor=${actor}&page=2`)).text();
    expect(rowsOf(second)).toBe(10);
    expect(second).not.toContain('rel="next"');
    expect(second).toContain('rel="prev"');
    expect(rowsOf(await (await visitor.get(`/admin/audit?actor=${actor}&page=abc`)).text())).toBe(50);
  });
});

describe("payments", () => {
  async function seedPayments() {
    const patientId = await createUser("patient");
    await named(patientId, "Hana", "Bekele");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patientId, "in_progress", { doctorId });
    const older = await addPayment(consultation.id, patientId, { minutesAgo: 300 });
    const late = await addPayment(consultation.id, patientId, { minutesAgo: 200, status: "paid_after_expiry", needsAdminReview: true });
    const newest = await addPayment(consultation.id, patientId, { minutesAgo: 1, status: "initialized", paidAt: null });
    return { consultation, older, late, newest };
  }
  /** A late payment's capture into its consultation's escrow, as confirming it writes (the money an outside refund gives back). */
  async function captured(payment: typeof payments.$inferSelect) {
    const [first, ...rest] = ledgerEntryStatements(
      db,
      paymentCaptured({
        txRef: payment.txRef,
        paymentId: payment.id,
        consultationId: payment.consultationId,
        amountSantim: payment.amountSantim,
        chargeSantim: 0,
      }),
      new Date(),
    );
    await db.batch([first!, ...rest]);
    return payment;
  }
  const order = (html: string) => [...html.matchAll(/data-testid="payment-row" data-tx-ref="([^"]+)"/g)].map((match) => match[1]);

  it("lists late payments awaiting a refund first, then the rest newest first", async () => {
    const { consultation, older, late, newest } = await seedPayments();
    const { visitor } = await admin();
    const html = text(await (await visitor.get("/admin/payments")).text());
    expect(order(html)).toEqual([late.txRef, newest.txRef, older.txRef]);
    expect(html).toContain("Paid after the window closed");
    expect(html).toContain(`href="/admin/consultations/${consultation.id}"`);
    expect([...html.matchAll(/data-testid="mark-refunded"/g)]).toHaveLength(1);
  });

  it("marks a refund once under a double click, with who and when, and one audit entry", async () => {
    const late = await captured((await seedPayments()).late);
    const { userId, visitor } = await admin();
    const first = await visitor.post("/admin/payments", {
      intent: "mark-refunded",
      paymentId: late.id,
      note: "Sent by bank transfer, FT123",
    });
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/admin/payments");
    const again = await visitor.post("/admin/payments", {
      intent: "mark-refunded",
      paymentId: late.id,
      note: "Sent by bank transfer, FT123",
    });
    expect(again.status).toBe(409);
    expect(text(await again.text())).toContain("This payment is already marked as refunded.");
    const row = (await db.query.payments.findFirst({ where: eq(payments.id, late.id) }))!;
    expect(row.refundedBy).toBe(userId);
    expect(row.refundedAt).toBeInstanceOf(Date);
    expect(await auditCount("admin.payment_refunded", late.id)).toBe(1);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "admin.payment_refunded"));
    expect(entry).toMatchObject({
      actorId: userId,
      targetType: "payment",
      targetId: late.id,
      details: { txRef: late.txRef, amountSantim: 15_000, note: "Sent by bank transfer, FT123" },
    });
    // A refund made outside the provider, with the admin's reason, and its ledger entry: the money left escrow.
    const [refund] = await db.select().from(refunds).where(eq(refunds.paymentId, late.id));
    expect(refund).toMatchObject({ channel: "outside", status: "succeeded", requestedBy: userId, note: "Sent by bank transfer, FT123" });
    expect(
      await db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.idempotencyKey, `refund:${refund!.reference}:settled`)),
    ).toHaveLength(1);
    expect(await balanceOf(db, "escrow", late.consultationId)).toBe(0);

    const html = text(await (await visitor.get("/admin/payments")).text());
    expect(order(html)[0]).not.toBe(late.txRef);
    expect(html).toContain('data-testid="refunded-badge"');
    expect(html).toContain('data-testid="refunded-by">Test admin<');
    expect(html).not.toContain('data-testid="mark-refunded"');
  });

  it("records a refund once when two admins mark it at the same moment", async () => {
    const late = await captured((await seedPayments()).late);
    const [one, two] = await Promise.all([admin(), admin()]);
    const answers = await Promise.all(
      [one, two, one].map(({ visitor }) =>
        visitor.post("/admin/payments", { intent: "mark-refunded", paymentId: late.id, note: "Sent by bank transfer, FT123" }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 409, 409]);
    expect(await auditCount("admin.payment_refunded", late.id)).toBe(1);
    // The patient is told once: one notification, one email.
    const told = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, late.patientId), eq(notifications.kind, "payment_refunded")));
    expect(told).toHaveLength(1);
    const patientEmail = (await db.query.users.findFirst({ where: eq(users.id, late.patientId) }))!.email;
    const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, patientEmail));
    expect(mails.filter((mail) => mail.subject === "Your Qoda payment has been refunded")).toHaveLength(1);
    const row = (await db.query.payments.findFirst({ where: eq(payments.id, late.id) }))!;
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "admin.payment_refunded"));
    expect(entry!.actorId).toBe(row.refundedBy);
  });

  it("leaves a refund under way at the payment service to finish, and shows why one failed", async () => {
    const { late } = await seedPayments();
    const { visitor } = await admin();
    const now = new Date();
    const base = { paymentId: late.id, consultationId: late.consultationId, amountSantim: 15_000, reason: "late_payment" as const };
    await db
      .insert(refunds)
      .values({ ...base, reference: `qoda-rf-${crypto.randomUUID()}`, status: "pending", createdAt: now, updatedAt: now });
    const html = text(await (await visitor.get("/admin/payments")).text());
    expect(html).toContain("A refund is under way at the payment service.");
    expect(html).not.toContain('data-testid="mark-refunded"');
    const refused = await visitor.post("/admin/payments", { intent: "mark-refunded", paymentId: late.id, note: "Paid back in cash" });
    expect(refused.status).toBe(409);
    expect(text(await refused.text())).toContain("under way at the payment service: wait for its answer.");
    expect(await auditCount("admin.payment_refunded", late.id)).toBe(0);

    await db.update(refunds).set({ status: "failed", lastError: "Insufficient balance" }).where(eq(refunds.paymentId, late.id));
    const failed = text(await (await visitor.get("/admin/payments")).text());
    expect(failed).toContain("The payment service could not refund it: Insufficient balance");
    expect(failed).toContain('data-testid="mark-refunded"');
  });

  it("refuses forged and wrong requests with a clear message, changing nothing", async () => {
    const { older, late } = await seedPayments();
    const { visitor } = await admin();
    const before = await db.select().from(payments);
    const cases: Array<[Record<string, string>, number, string]> = [
      [
        { intent: "mark-refunded", paymentId: older.id, note: "Sent by bank transfer, FT123" },
        409,
        "This payment does not await a refund.",
      ],
      [
        { intent: "mark-refunded", paymentId: crypto.randomUUID(), note: "Sent by bank transfer, FT123" },
        404,
        "This payment was not found.",
      ],
      [{ intent: "mark-refunded", paymentId: `${late.id}' OR 1=1 --` }, 400, "The request was not understood."],
      [{ intent: "mark-refunded", paymentId: "x".repeat(60_000) }, 400, "The request was not understood."],
      [{ intent: "mark-refunded", paymentId: late.id }, 400, "Say how and why it was refunded."],
      [{ intent: "mark-refunded", paymentId: late.id, note: " \u0000 " }, 400, "Say how and why it was refunded."],
      [{ intent: "mark-refunded", paymentId: late.id, note: "x".repeat(501) }, 400, "Shorten the note to 500 characters or fewer."],
      [{ intent: "delete-everything", paymentId: late.id }, 400, "The request was not understood."],
      [{ paymentId: late.id }, 400, "The request was not understood."],
    ];
    for (const [fields, status, message] of cases) {
      const answer = await visitor.post("/admin/payments", fields);
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
      expect(text(await answer.text())).toContain(message);
    }
    const notAForm = await visitor.fetch("/admin/payments", {
      method: "POST",
      body: "{]",
      headers: { Origin: "https://qoda.test", "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(notAForm.status).toBe(400);
    const amharic = await visitor.post("/admin/payments?lng=am", {
      intent: "mark-refunded",
      paymentId: older.id,
      note: "Sent by bank transfer, FT123",
    });
    expect(text(await amharic.text())).toContain("ይህ ክፍያ ተመላሽ የሚጠብቅ አይደለም።");
    expect(await db.select().from(payments)).toEqual(before);
    expect(await auditCount("admin.payment_refunded")).toBe(0);
  });
});

function roomOf(consultationId: string) {
  return getServerByName(env.ConsultationRoom, consultationId) as Promise<DurableObjectStub<ConsultationRoom>>;
}

describe("opening a consultation", () => {
  async function seedConsultation() {
    const patientId = await createUser("patient");
    await named(patientId, "Hana", "Bekele", "hana.record@");
    const doctorId = await createUser("doctor");
    await named(doctorId, "Abebe", "Kebede");
    const consultation = await createConsultation(patientId, "in_progress", {
      doctorId,
      mainConcern: "Scaly patches on both elbows",
      observations: "Well-demarcated plaques",
      diagnosis: "Plaque psoriasis",
      treatmentPlan: "Topical steroid for two weeks",
    });
    const photoId = crypto.randomUUID();
    const chatImageId = crypto.randomUUID();
    for (const [id, kind] of [
      [photoId, "photo"],
      [chatImageId, "chat_image"],
    ] as const) {
      const storageKey = `consultations/${consultation.id}/${kind}/${id}`;
      await env.FILES.put(storageKey, PNG_BYTES);
      await db.insert(consultationFiles).values({
        id,
        consultationId: consultation.id,
        uploaderId: patientId,
        kind,
        storageKey,
        contentType: "image/png",
        sizeBytes: PNG_BYTES.length,
      });
    }
    const room = await roomOf(consultation.id);
    await room.postMessage({ senderId: patientId, kind: "text", text: "It itches most at night", fileId: null });
    await room.postMessage({ senderId: doctorId, kind: "text", text: "Please send a close-up", fileId: null });
    await room.postMessage({ senderId: patientId, kind: "image", text: "", fileId: chatImageId });
    return { consultation, photoId, chatImageId };
  }

  it("asks why first, records the reason, then shows the record with its photos, chat and summary", async () => {
    const { consultation, photoId, chatImageId } = await seedConsultation();
    const { userId, visitor } = await admin();
    const path = `/admin/consultations/${consultation.id}`;
    const asked = await visitor.get(path);
    expect(asked.status).toBe(200);
    const askedHtml = text(await asked.text());
    expect(askedHtml).toContain("Why are you opening this consultation?");
    for (const secret of ["Scaly patches", "Plaque psoriasis", "It itches", "Hana", photoId]) expect(askedHtml).not.toContain(secret);
    expect(await auditCount("admin.consultation_opened")).toBe(0);
    // A chat's photo is part of the record: not before the opening.
    expect((await visitor.get(`/files/${chatImageId}`)).status).toBe(404);

    for (const [reason, message] of [
      ["", "Please write why you are opening this consultation."],
      [" \u0000\u202e\t ", "Please write why you are opening this consultation."],
      ["x".repeat(201), "Please keep the reason to 200 characters or fewer."],
    ] as const) {
      const refused = await visitor.post(path, { reason });
      expect(refused.status).toBe(400);
      const html = text(await refused.text());
      expect(html).toContain(message);
      expect(html).not.toContain("Scaly patches");
    }
    expect(await visitor.post(path, {})).toHaveProperty("status", 400);
    expect(await auditCount("admin.consultation_opened")).toBe(0);

    const opened = await visitor.post(path, { reason: "  Patient asked\r\nfor a refund\u0007  " });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe(path);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "admin.consultation_opened"));
    expect(entry).toMatchObject({
      actorId: userId,
      targetType: "consultation",
      targetId: consultation.id,
      details: { reason: "Patient asked for a refund" },
    });

    const shown = await visitor.get(path);
    expect(shown.status).toBe(200);
    const html = text(await shown.text());
    for (const seen of [
      "Scaly patches on both elbows",
      "Plaque psoriasis",
      "Topical steroid for two weeks",
      "It itches most at night",
      "Please send a close-up",
      "Hana Bekele",
      "hana.record@x",
      "Abebe Kebede",
      "Patient asked for a refund",
      `/files/${photoId}`,
      `/files/${chatImageId}`,
    ])
      expect(html).toContain(seen);
    expect((await visitor.get(`/files/${photoId}`)).status).toBe(200);
    expect((await visitor.get(`/files/${chatImageId}`)).status).toBe(200);

    // A reload keeps the record open without a second reason, and each read is logged.
    const viewsBefore = await auditCount("consultation.viewed", consultation.id);
    expect(text(await (await visitor.get(path)).text())).toContain("Plaque psoriasis");
    expect(await auditCount("consultation.viewed", consultation.id)).toBe(viewsBefore + 1);
    expect(await auditCount("admin.consultation_opened")).toBe(1);
    // Each new opening is recorded with its own reason.
    await visitor.post(path, { reason: "Second look for the dispute" });
    expect(await auditCount("admin.consultation_opened", consultation.id)).toBe(2);

    // Another admin does not share this admin's opening.
    const other = await admin();
    expect(text(await (await other.visitor.get(path)).text())).toContain("Why are you opening this consultation?");
    expect((await other.visitor.get(`/files/${chatImageId}`)).status).toBe(404);
  });

  it("asks again once the opening has run out", async () => {
    const { consultation } = await seedConsultation();
    const { userId, visitor } = await admin();
    await db.insert(auditLog).values({
      actorId: userId,
      action: "admin.consultation_opened",
      targetType: "consultation",
      targetId: consultation.id,
      details: { reason: "Long ago" },
      createdAt: new Date(Date.now() - OPENING_GRANT_MS - MIN),
    });
    const html = text(await (await visitor.get(`/admin/consultations/${consultation.id}`)).text());
    expect(html).toContain("Why are you opening this consultation?");
    expect(html).not.toContain("Scaly patches");
  });

  it("answers 404 for a malformed or unknown id, recording nothing", async () => {
    const { visitor } = await admin();
    for (const id of ["not-a-uuid", crypto.randomUUID(), "%27%20OR%201%3D1", "a".repeat(3000)]) {
      expect((await visitor.get(`/admin/consultations/${id}`)).status).toBe(404);
      expect((await visitor.post(`/admin/consultations/${id}`, { reason: "Curious" })).status).toBe(404);
    }
    expect(await auditCount("admin.consultation_opened")).toBe(0);
  });

  it("speaks Amharic", async () => {
    const { consultation } = await seedConsultation();
    const { visitor } = await admin();
    const path = `/admin/consultations/${consultation.id}`;
    expect(text(await (await visitor.get(`${path}?lng=am`)).text())).toContain("ይህን ምክክር ለምን ይከፍታሉ?");
    expect(text(await (await visitor.post(path, { reason: "" })).text())).toContain("እባክዎ ይህን ምክክር ለምን እንደሚከፍቱ ይጻፉ።");
  });
});

describe("everyone but admins", () => {
  it("is turned away from every loader and action of these screens, changing nothing", async () => {
    const patientId = await createUser("patient");
    const doctorId = await createUser("doctor");
    const consultation = await createConsultation(patientId, "in_progress", { doctorId });
    const late = await addPayment(consultation.id, patientId, { status: "paid_after_expiry", needsAdminReview: true });
    const people = [
      { who: "anonymous", visitor: new Visitor() },
      { who: "patient", visitor: new Visitor((await signedIn("patient")).cookie) },
      { who: "doctor", visitor: new Visitor((await signedIn("doctor")).cookie) },
    ];
    const pages = ["/admin/overview", "/admin/feedbacks", "/admin/audit", "/admin/payments", `/admin/consultations/${consultation.id}`];
    const posts: Array<[string, Record<string, string>]> = [
      ["/admin/payments", { intent: "mark-refunded", paymentId: late.id, note: "Sent by bank transfer, FT123" }],
      [`/admin/consultations/${consultation.id}`, { reason: "Just looking" }],
    ];
    const auditBefore = (
      await db
        .select({ rows: count() })
        .from(auditLog)
        .where(sql`${auditLog.action} LIKE 'admin.%'`)
    )[0]!.rows;
    for (const { who, visitor } of people) {
      const expected = (path: string) => (who === "anonymous" ? `/login?redirect=${encodeURIComponent(path)}` : "/access-denied");
      for (const path of pages) {
        const answer = await visitor.get(path);
        expect(answer.status, `${who} GET ${path}`).toBe(302);
        expect(answer.headers.get("Location"), `${who} GET ${path}`).toBe(expected(path));
      }
      for (const [path, fields] of posts) {
        const answer = await visitor.post(path, fields);
        expect(answer.status, `${who} POST ${path}`).toBe(302);
        expect(answer.headers.get("Location"), `${who} POST ${path}`).toBe(expected(path));
      }
    }
    expect((await db.query.payments.findFirst({ where: eq(payments.id, late.id) }))!.refundedAt).toBeNull();
    expect(
      (
        await db
          .select({ rows: count() })
          .from(auditLog)
          .where(sql`${auditLog.action} LIKE 'admin.%'`)
      )[0]!.rows,
    ).toBe(auditBefore);
  });
});
