// A patient's privacy rights (docs/decisions/0037): the download of everything Qoda holds about them,
// the closing of their account (refused while a consultation is open or money unsettled), the purge of
// closed accounts' records when their retention ends, what admins see of it, and photos deleted for
// real (the bucket listed, not trusted).
import { env } from "cloudflare:test";
import { and, count, eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";

import {
  auditLog,
  consultationFiles,
  consultations,
  contactMessages,
  escrows,
  ledgerEntries,
  ledgerLines,
  oauthAccounts,
  passwordCredentials,
  patientFeedback,
  profiles,
  refunds,
  users,
} from "~/db/schema";
import { formatLongDay } from "~/domain/dates";
import { confirmPayment } from "~/server/consultations/confirm-payment.server";
import { purgeDueRecords } from "~/server/consultations/retention.server";
import { runHousekeeping } from "~/server/jobs.server";
import { openDispute, resolveDispute } from "~/server/money/disputes.server";
import { releaseDueEscrows } from "~/server/money/escrow.server";
import { moveRefundsOn, retryRefund, settleRefundsOf } from "~/server/money/refunds.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";
import { chatRecord, postChatMessage } from "~/server/rooms.server";

import { emailsTo, GOOD_PASSWORD, registeredPatient } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createConsultation, createUser, db, ORIGIN, sessionCookieFor } from "./fixtures";
import { config, endedAgo, paidAtProvider, paidConsultation } from "./money-fixtures";
import { PNG_BYTES } from "./photos";

const HOUR_MS = 60 * 60_000;
const YEAR_MS = 365 * 24 * HOUR_MS;

/** Stores photos (two of the request's, one of the chat's) in R2 with their rows. */
async function withFiles(consultationId: string, uploaderId: string) {
  const ids: string[] = [];
  for (const kind of ["photo", "photo", "chat_image"] as const) {
    const id = crypto.randomUUID();
    const storageKey = `consultations/${consultationId}/${kind === "photo" ? "photos" : "chat"}/${id}`;
    await env.FILES.put(storageKey, PNG_BYTES);
    await db
      .insert(consultationFiles)
      .values({ id, consultationId, uploaderId, kind, storageKey, contentType: "image/png", sizeBytes: PNG_BYTES.byteLength });
    ids.push(id);
  }
  return ids;
}

/** Every object R2 holds under the consultation's prefix: listed, so nothing is taken on trust. */
async function objectsOf(consultationId: string) {
  const listed = await env.FILES.list({ prefix: `consultations/${consultationId}/` });
  return listed.objects.map((object) => object.key);
}

/** A paid consultation with a chat, photos, and its money released to the doctor (nothing unsettled). */
async function settledConsultation() {
  const paid = await paidConsultation();
  await postChatMessage(env, paid.consultationId, { senderId: paid.patientId, kind: "text", text: "It itches at night.", fileId: null });
  await postChatMessage(env, paid.consultationId, {
    senderId: paid.doctorId,
    kind: "text",
    text: "Use the cream twice a day.",
    fileId: null,
  });
  const fileIds = await withFiles(paid.consultationId, paid.patientId);
  await endedAgo(paid.consultationId, 80 * HOUR_MS);
  await releaseDueEscrows(db, new Date());
  return { ...paid, fileIds, patient: new Visitor(await sessionCookieFor(paid.patientId)) };
}

const userOf = async (id: string) => (await db.query.users.findFirst({ where: eq(users.id, id) }))!;
const recordOf = async (id: string) => (await db.query.consultations.findFirst({ where: eq(consultations.id, id) }))!;
const auditCount = async (action: string, targetId: string) =>
  (
    await db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)))
  )[0]!.n;

describe("downloading one's data", () => {
  it("gives the patient a ZIP of their profile, consultations, messages, payments and photos, and nobody else's", async () => {
    const mine = await settledConsultation();
    const other = await settledConsultation();
    const otherEmail = (await userOf(other.patientId)).email;

    const response = await mine.patient.get("/patient/profile/export");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="qoda-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const read = (name: string) => JSON.parse(new TextDecoder().decode(files[name]!)) as unknown;

    const profile = read("profile.json") as { id: string; email: string };
    expect(profile).toMatchObject({ id: mine.patientId, email: (await userOf(mine.patientId)).email });
    const records = read("consultations.json") as Array<{ id: string; summary: { diagnosis: string }; photos: Array<{ file: string }> }>;
    expect(records.map((record) => record.id)).toEqual([mine.consultationId]);
    expect(records[0]!.summary.diagnosis).toBe("Contact dermatitis");
    const messages = read(`messages/${mine.consultationId}.json`) as Array<{ from: string; text: string }>;
    expect(messages.map((message) => [message.from, message.text])).toEqual([
      ["patient", "It itches at night."],
      ["doctor", "Use the cream twice a day."],
    ]);
    const money = read("payments.json") as { payments: Array<{ consultationId: string; status: string }>; receipts: unknown[] };
    expect(money.payments.map((payment) => [payment.consultationId, payment.status])).toEqual([[mine.consultationId, "paid"]]);
    expect(money.receipts).toHaveLength(1);
    // The photos themselves, byte for byte, where consultations.json says they are.
    expect(records[0]!.photos).toHaveLength(3);
    for (const { file } of records[0]!.photos) expect(files[file]).toEqual(PNG_BYTES);

    // Nothing of the other patient's, anywhere in the archive.
    const everything = Object.entries(files)
      .map(([name, bytes]) => `${name}\n${new TextDecoder().decode(bytes)}`)
      .join("\n");
    for (const foreign of [other.patientId, other.consultationId, otherEmail, ...other.fileIds]) expect(everything).not.toContain(foreign);
    expect(await auditCount("privacy.data_exported", mine.patientId)).toBe(1);
  });

  it("is for signed-in patients only", async () => {
    expect((await new Visitor().get("/patient/profile/export")).headers.get("Location")).toMatch(/^\/login/);
    const doctor = new Visitor(await sessionCookieFor(await createUser("doctor")));
    expect((await doctor.get("/patient/profile/export")).headers.get("Location")).toBe("/access-denied");
  });
});

describe("closing the account", () => {
  it("shows what is erased now and what is kept until when, in a form that works without JavaScript", async () => {
    const { patient } = await settledConsultation();
    const page = await (await patient.get("/patient/profile")).text();
    expect(page).toMatch(/<form[^>]*method="post"[^>]*>(?:(?!<\/form>)[\s\S])*value="close-account"/);
    expect(page).toContain("Erased at once");
    expect(page).toMatch(/for 1 year after your last consultation, that is until \d{1,2} \w+ \d{4}/);
    const amharic = await (await patient.get("/patient/profile?lng=am")).text();
    expect(amharic).toContain("ወዲያውኑ የሚሰረዙ");
    expect(amharic).toContain("ዓ.ም.");
  });

  it("needs the word typed, and leaves the account as it was", async () => {
    const { patient, patientId } = await settledConsultation();
    const before = await userOf(patientId);
    const answer = await patient.post("/patient/profile", { intent: "close-account", confirm: "yes" });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("Type CLOSE in the box to confirm.");
    expect(await userOf(patientId)).toEqual(before);
  });

  it("is refused while a consultation is open, and says why in the patient's language", async () => {
    const patientId = await createUser("patient");
    await createConsultation(patientId, "pending");
    const patient = new Visitor(await sessionCookieFor(patientId));
    const answer = await patient.post("/patient/profile", { intent: "close-account", confirm: "CLOSE" });
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain("You have a consultation that is not finished yet");
    await patient.get("/patient/profile?lng=am");
    const inAmharic = await patient.post("/patient/profile", { intent: "close-account", confirm: "ይዘጋ" });
    expect(inAmharic.status).toBe(409);
    expect(await inAmharic.text()).toContain("ገና ያልተጠናቀቀ ምክክር አለዎት");
    expect((await userOf(patientId)).closedAt).toBeNull();
  });

  it.each(["held", "disputed"] as const)("is refused while money is %s in escrow", async (status) => {
    const paid = await paidConsultation();
    await endedAgo(paid.consultationId, HOUR_MS); // ended, but its fee is still held for 72 hours
    await db.update(escrows).set({ status }).where(eq(escrows.consultationId, paid.consultationId));
    const patient = new Visitor(await sessionCookieFor(paid.patientId));
    const answer = await patient.post("/patient/profile", { intent: "close-account", confirm: "CLOSE" });
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain("The payment for one of your consultations is not settled yet");
    expect((await userOf(paid.patientId)).closedAt).toBeNull();
    expect(await auditCount("account.closed", paid.patientId)).toBe(0);
  });

  it("is allowed once a late payment has been refunded, though that payment once awaited an admin", async () => {
    const late = await paidAtProvider({ windowLeftMs: -60_000 });
    expect((await confirmPayment(env, config(), ORIGIN, late.txRef, new Date())).kind).toBe("late");
    await settleRefundsOf(env, config(), { txRef: late.txRef, reference: null, amountSantim: null }, new Date());
    expect(await db.select({ status: refunds.status }).from(refunds).where(eq(refunds.consultationId, late.consultationId))).toEqual([
      { status: "succeeded" },
    ]);
    // The request went back to the queue; the patient withdrew it.
    await db.update(consultations).set({ status: "cancelled", doctorId: null }).where(eq(consultations.id, late.consultationId));
    const patient = new Visitor(await sessionCookieFor(late.patientId));
    const answer = await patient.post("/patient/profile", { intent: "close-account", confirm: "CLOSE" });
    expect(answer.status).toBe(302);
    expect((await userOf(late.patientId)).closedAt).not.toBeNull();
  });

  it("is refused while a refund the provider failed is owed to the patient, until an admin's new refund settles it", async () => {
    const paid = await paidConsultation();
    await endedAgo(paid.consultationId, HOUR_MS);
    expect(
      await openDispute(
        { db, config: config() },
        paid.patientId,
        paid.consultationId,
        { reason: "other", words: "No answer." },
        new Date(),
      ),
    ).toEqual({ ok: true });
    const dispute = (await db.query.disputes.findFirst({ where: (table, { eq }) => eq(table.consultationId, paid.consultationId) }))!;
    const adminId = await createUser("admin");
    await setSandboxSwitch(env, "refunds", "fail");
    const decision = { resolution: "refund_full" as const, refundPartSantim: null, note: "All of it." };
    expect(await resolveDispute(env, { db, config: config() }, adminId, dispute.id, decision, new Date())).toEqual({ ok: true });
    // The provider refuses every try: after the last, the refund fails and its money is back in escrow.
    for (let hours = 1; hours <= 8; hours += 1) await moveRefundsOn(env, config(), new Date(Date.now() + hours * 3 * HOUR_MS));
    const [failed] = await db.select().from(refunds).where(eq(refunds.consultationId, paid.consultationId));
    expect(failed).toMatchObject({ status: "failed" });
    await setSandboxSwitch(env, "refunds", "succeed");

    const patient = new Visitor(await sessionCookieFor(paid.patientId));
    const refused = await patient.post("/patient/profile", { intent: "close-account", confirm: "CLOSE" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("The payment for one of your consultations is not settled yet");
    expect((await userOf(paid.patientId)).closedAt).toBeNull();

    expect(await retryRefund(env, config(), adminId, failed!.id, new Date())).toBe("retried");
    const [, retried] = await db.select().from(refunds).where(eq(refunds.consultationId, paid.consultationId)).orderBy(refunds.createdAt);
    await settleRefundsOf(
      env,
      config(),
      {
        txRef: (await db.query.payments.findFirst({ where: (table, { eq }) => eq(table.id, retried!.paymentId) }))!.txRef,
        reference: null,
        amountSantim: null,
      },
      new Date(),
    );
    expect((await db.query.refunds.findFirst({ where: eq(refunds.id, retried!.id) }))!.status).toBe("succeeded");
    expect((await patient.post("/patient/profile", { intent: "close-account", confirm: "CLOSE" })).status).toBe(302);
  });

  it("erases the person at once, ends every session, dates the records' purge, emails, audits, and closes once", async () => {
    const { visitor, email } = await registeredPatient();
    const patientId = (await db.query.users.findFirst({ where: eq(users.email, email) }))!.id;
    await db.insert(oauthAccounts).values({ provider: "google", providerUserId: `g-${patientId}`, userId: patientId });
    const completedAt = new Date(Date.now() - 30 * 24 * HOUR_MS);
    const doctorId = await createUser("doctor");
    const record = await createConsultation(patientId, "completed", { doctorId, startedAt: completedAt, completedAt, diagnosis: "Eczema" });
    await withFiles(record.id, patientId);
    const draft = await createConsultation(patientId, "awaiting_assets", { title: "" });
    await withFiles(draft.id, patientId);
    const otherDevice = new Visitor(await sessionCookieFor(patientId));
    const wrote = { name: "Selam", subject: `A question ${patientId}`, message: "When is the clinic open?" };
    await db.insert(contactMessages).values([
      { ...wrote, email },
      { ...wrote, email: "someone-else@example.com" },
    ]);

    // A double submit: both at once, one closing.
    const answers = await Promise.all([
      visitor.post("/patient/profile", { intent: "close-account", confirm: "close" }),
      otherDevice.post("/patient/profile", { intent: "close-account", confirm: "CLOSE" }),
    ]);
    expect(answers.some((answer) => answer.headers.get("Location") === "/")).toBe(true);

    const closed = await userOf(patientId);
    expect(closed.closedAt).not.toBeNull();
    expect(closed.email).toMatch(/^closed-[0-9a-f-]{36}@closed\.invalid$/);
    expect(await db.query.profiles.findFirst({ where: eq(profiles.userId, patientId) })).toMatchObject({
      firstName: "",
      lastName: "",
      phone: null,
    });
    expect(await db.query.passwordCredentials.findFirst({ where: eq(passwordCredentials.userId, patientId) })).toBeUndefined();
    expect(await db.query.oauthAccounts.findFirst({ where: eq(oauthAccounts.userId, patientId) })).toBeUndefined();
    expect(await auditCount("account.closed", patientId)).toBe(1);
    // What they wrote through the contact form goes too; someone else's stays.
    expect(
      await db.select({ email: contactMessages.email }).from(contactMessages).where(eq(contactMessages.subject, wrote.subject)),
    ).toEqual([{ email: "someone-else@example.com" }]);
    // Every session is over, and no one can sign in with the old address.
    for (const device of [visitor, otherDevice]) expect((await device.get("/patient/profile")).headers.get("Location")).toMatch(/^\/login/);
    const signIn = await new Visitor().post("/login", { email, password: GOOD_PASSWORD });
    expect(signIn.headers.get("Location") ?? "").not.toMatch(/dashboard|auth-callback/);
    // The medical record is kept a year after the last consultation; the draft is gone, its photos too.
    const kept = await recordOf(record.id);
    expect(kept.purgeAfter?.getTime()).toBe(completedAt.getTime() + YEAR_MS);
    expect(kept.diagnosis).toBe("Eczema");
    expect(await objectsOf(record.id)).toHaveLength(3);
    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, draft.id) })).toBeUndefined();
    expect(await objectsOf(draft.id)).toEqual([]);
    // One confirmation, to the address the account had; the mail sent there before is gone from the outbox.
    const mails = await emailsTo(email);
    expect(mails.map((mail) => mail.subject)).toEqual(["Your Qoda account is closed"]);
    expect(mails[0]!.textBody).toContain("kept until");
  });

  it("leaves no draft behind: one the closing did not reach goes with the next housekeeping run, photos too", async () => {
    const { visitor, email } = await registeredPatient();
    const patientId = (await db.query.users.findFirst({ where: eq(users.email, email) }))!.id;
    expect((await visitor.post("/patient/profile", { intent: "close-account", confirm: "CLOSE" })).headers.get("Location")).toBe("/");
    // As if the Worker had stopped right after the closing batch, before it deleted the drafts.
    const leftBehind = await createConsultation(patientId, "awaiting_assets", { title: "" });
    await withFiles(leftBehind.id, patientId);
    const someoneElse = await createUser("patient");
    const someoneElses = await createConsultation(someoneElse, "awaiting_assets", { title: "" });
    await withFiles(someoneElses.id, someoneElse);

    await runHousekeeping(env, new Date());

    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, leftBehind.id) })).toBeUndefined();
    expect(await objectsOf(leftBehind.id)).toEqual([]);
    // A fresh draft of an open account is the patient's work in progress: it stays.
    expect(await db.query.consultations.findFirst({ where: eq(consultations.id, someoneElses.id) })).toBeDefined();
    expect(await objectsOf(someoneElses.id)).toHaveLength(3);
  });

  it("closes in Amharic with the Amharic word, and the email is in Amharic", async () => {
    const { visitor, email } = await registeredPatient();
    const patientId = (await db.query.users.findFirst({ where: eq(users.email, email) }))!.id;
    // The profile's language decides the email's.
    await db.update(profiles).set({ preferredLanguage: "am" }).where(eq(profiles.userId, patientId));
    await visitor.get("/patient/profile?lng=am");
    const answer = await visitor.post("/patient/profile", { intent: "close-account", confirm: "ይዘጋ" });
    expect(answer.headers.get("Location")).toBe("/");
    const closing = (await emailsTo(email)).filter((mail) => mail.subject === "የ«ቆዳ» መለያዎ ተዘግቷል");
    expect(closing).toHaveLength(1);
    expect(closing[0]!.textBody).toContain("ዓ.ም.");
  });
});

describe("a closed account, as others meet it", () => {
  it("is named \"Closed account\" on the doctor's pages and the admins', without its placeholder address or the contact it left", async () => {
    const settled = await settledConsultation();
    await db.insert(patientFeedback).values({
      consultationId: settled.consultationId,
      patientId: settled.patientId,
      doctorId: settled.doctorId,
      rating: 4,
      feedbackMessage: "Helpful.",
      allowContact: true,
      contactMethod: "phone",
      contactValue: "+251911234567",
    });
    const doctor = new Visitor(await sessionCookieFor(settled.doctorId));
    const admin = new Visitor(await sessionCookieFor(await createUser("admin")));
    const doctorPages = [
      `/doctor/consultation/${settled.consultationId}`,
      `/doctor/consultation/${settled.consultationId}/summary`,
      "/doctor/consultations",
      "/doctor/patients",
      "/doctor/earnings",
    ];
    // The audit log names the closing's actor: the patient themself.
    const adminPages = ["/admin/dashboard?tab=patients", "/admin/payments", "/admin/feedbacks", "/admin/audit"];
    const pageText = async (page: string) => (await (page.startsWith("/doctor") ? doctor : admin).get(page)).text();
    // Admins' pages list everyone, other closed accounts too: each page must name one more after this closing.
    const closedNamed = async (page: string) => (await pageText(page)).split("Closed account").length - 1;
    const before = new Map<string, number>();
    for (const page of [...doctorPages, ...adminPages]) before.set(page, await closedNamed(page));

    expect((await settled.patient.post("/patient/profile", { intent: "close-account", confirm: "CLOSE" })).headers.get("Location")).toBe(
      "/",
    );

    for (const page of [...doctorPages, ...adminPages]) {
      expect(await closedNamed(page), page).toBeGreaterThan(before.get(page)!);
      const html = await pageText(page);
      expect(html, page).not.toContain("@closed.invalid");
      expect(html, page).not.toContain("+251911234567");
    }
    expect(await (await doctor.get("/doctor/patients?lng=am")).text()).toContain("የተዘጋ መለያ");
    // The contact the patient left with their rating is erased with the rest; the rating stays with the record.
    expect(await db.query.patientFeedback.findFirst({ where: eq(patientFeedback.consultationId, settled.consultationId) })).toMatchObject({
      rating: 4,
      allowContact: false,
      contactMethod: null,
      contactValue: null,
    });
  });
});

describe("the retention purge", () => {
  async function closedWithRecord(purgeAfter: Date) {
    const settled = await settledConsultation();
    const answer = await settled.patient.post("/patient/profile", { intent: "close-account", confirm: "CLOSE" });
    expect(answer.headers.get("Location")).toBe("/");
    // The record's year is moved, as time would move it.
    await db.update(consultations).set({ purgeAfter }).where(eq(consultations.id, settled.consultationId));
    return settled;
  }

  it("purges a record past its date (R2 listed empty, chat gone), keeps the money, audits once, even run twice at once", async () => {
    const due = await closedWithRecord(new Date(Date.now() - 1000));
    const notYet = await closedWithRecord(new Date(Date.now() + YEAR_MS));
    const ledgerBefore = [
      (await db.select({ n: count() }).from(ledgerEntries))[0]!.n,
      (await db.select({ n: count() }).from(ledgerLines))[0]!.n,
    ];

    const now = new Date();
    await Promise.all([purgeDueRecords(env, db, now), purgeDueRecords(env, db, now)]);

    expect(await objectsOf(due.consultationId)).toEqual([]);
    expect(await chatRecord(env, due.consultationId)).toEqual([]);
    const purged = await recordOf(due.consultationId);
    expect(purged).toMatchObject({ purgedAt: now, diagnosis: null, observations: null, mainConcern: "-", status: "completed" });
    expect(await db.select().from(consultationFiles).where(eq(consultationFiles.consultationId, due.consultationId))).toEqual([]);
    expect(await auditCount("record.purged", due.consultationId)).toBe(1);
    // Money records stay as they were: the journal is append-only.
    const ledgerAfter = [
      (await db.select({ n: count() }).from(ledgerEntries))[0]!.n,
      (await db.select({ n: count() }).from(ledgerLines))[0]!.n,
    ];
    expect(ledgerAfter).toEqual(ledgerBefore);
    expect(
      await db.query.payments.findFirst({ where: (payment, { eq: is }) => is(payment.consultationId, due.consultationId) }),
    ).toBeDefined();
    // The one not yet due is untouched.
    expect(await objectsOf(notYet.consultationId)).toHaveLength(3);
    expect(await chatRecord(env, notYet.consultationId)).toHaveLength(2);
    expect((await recordOf(notYet.consultationId)).purgedAt).toBeNull();

    // Again later, by the scheduled job itself: nothing more to do, nothing audited twice.
    const report = await runHousekeeping(env, new Date());
    expect(await auditCount("record.purged", due.consultationId)).toBe(1);
    expect(report.recordsPurged).toBe(0);
  });

  it("shows admins when a record will be purged and when it was, in Ethiopian dates for Amharic readers", async () => {
    const due = await closedWithRecord(new Date(Date.now() - 1000));
    const laterDate = new Date(Date.UTC(2027, 10, 26, 9));
    const later = await closedWithRecord(laterDate);
    await purgeDueRecords(env, db, new Date());
    const admin = new Visitor(await sessionCookieFor(await createUser("admin")));

    expect(await (await admin.get(`/admin/consultations/${due.consultationId}`)).text()).toMatch(/Purged on \d{1,2} \w+ \d{4}/);
    const scheduled = `Will be purged on ${formatLongDay(laterDate, "en")}`;
    expect(await (await admin.get(`/admin/consultations/${later.consultationId}`)).text()).toContain(scheduled);
    const list = await (await admin.get("/admin/patients")).text();
    expect(list).toContain("Closed account");
    expect(list).toContain(scheduled);
    const inAmharic = await (await admin.get(`/admin/consultations/${later.consultationId}?lng=am`)).text();
    expect(formatLongDay(laterDate, "am")).toMatch(/ዓ\.ም\.$/);
    expect(inAmharic).toContain(`በ${formatLongDay(laterDate, "am")} ይሰረዛል`);
  });
});

describe("photos the patient deleted", () => {
  it("are gone from the bucket itself", async () => {
    const { consultationId, patient, patientId } = await settledConsultation();
    await db.insert(patientFeedback).values({ consultationId, patientId, rating: 5 });
    expect(await objectsOf(consultationId)).toHaveLength(3);
    const answer = await patient.post(`/patient/consultation/${consultationId}`, { intent: "delete-photos" });
    expect(answer.headers.get("Location")).toBe(`/patient/consultation/${consultationId}`);
    expect(await objectsOf(consultationId)).toEqual([]);
  });
});
