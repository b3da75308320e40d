// Payouts to doctors in the real D1 with the sandbox provider: a doctor's payout details from the
// profile's plain form, a payout run that sends the available balance once (however many runs at
// once), settled by the provider's webhook (replayed) or the job's later check, a failure that gives
// the money back and says why, and the earnings page and its CSV that show all of it.
import { env } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";

import { auditLog, doctorPayoutAccounts, doctors, ledgerEntries, mailOutbox, notifications, payouts, profiles, users } from "~/db/schema";
import { formatMoment } from "~/domain/dates";
import { CONSULTATION_FEE_SANTIM, splitRelease } from "~/domain/money";
import { PAYOUT_ACCOUNT_HOLD_MS, PAYOUTS_PER_RUN } from "~/domain/payouts";
import { setPassword } from "~/server/auth/accounts.server";
import { confirmConsultationComplete } from "~/server/money/escrow.server";
import { balanceOf } from "~/server/money/ledger.server";
import { movePayoutsOn, runPayouts } from "~/server/money/payouts.server";
import { setSandboxSwitch } from "~/server/payments/sandbox-switches.server";

import { GOOD_PASSWORD } from "./auth-helpers";
import { Visitor } from "./browser-like";
import { createUser, db, sessionCookieFor } from "./fixtures";
import { config, duringTransferHours, endedAgo, paidConsultation, signedWebhook } from "./money-fixtures";

const DOCTOR_SHARE = splitRelease(CONSULTATION_FEE_SANTIM).doctorSantim;
/** The Ethiopian calendar's months, as an Amharic reader sees them. */
const ETHIOPIAN_MONTHS = ["መስከረም", "ጥቅምት", "ኅዳር", "ታኅሣሥ", "ጥር", "የካቲት", "መጋቢት", "ሚያዝያ", "ግንቦት", "ሰኔ", "ሐምሌ", "ነሐሴ", "ጳጉሜን"];
/** The sandbox's CBE: 13-digit account numbers. */
const CBE = "946";

afterEach(async () => {
  await setSandboxSwitch(env, "payouts", "succeed");
});

/** A doctor with one consultation released to them (120 ETB available). */
async function doctorWithEarnings() {
  const { consultationId, patientId, doctorId } = await paidConsultation();
  await endedAgo(consultationId, 60_000);
  expect((await confirmConsultationComplete(db, patientId, consultationId, new Date())).ok).toBe(true);
  return { doctorId, consultationId };
}

async function withPayoutAccount(doctorId: string, now = new Date()) {
  await db.insert(doctorPayoutAccounts).values({
    doctorId,
    bankCode: CBE,
    bankName: "Commercial Bank of Ethiopia (CBE)",
    accountName: "Test Doctor",
    accountNumber: "1000123456789",
    createdAt: now,
    updatedAt: now,
  });
}

const payoutsOf = (doctorId: string) => db.select().from(payouts).where(eq(payouts.doctorId, doctorId));
const available = async (doctorId: string) => 0 - (await balanceOf(db, "doctor_payable", doctorId));
const inTransit = async (doctorId: string) => 0 - (await balanceOf(db, "payouts_in_transit", doctorId));
const entriesOfKey = (key: string) => db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, key));

function payoutWebhook(reference: string, status: "success" | "failed") {
  return signedWebhook({ event: `payout.${status}`, type: "Payout", reference, status, amount: "120.00", currency: "ETB" });
}

describe("payout details on the doctor's profile", () => {
  it("are checked against the provider's banks, saved, audited and emailed, without JavaScript, in the doctor's language", async () => {
    const doctorId = await createUser("doctor");
    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const profile = await doctor.get("/doctor/profile/payout");
    expect(profile.status).toBe(200);
    const html = await profile.text();
    expect(html).toContain("You have not added payout details yet");
    expect(html).toContain("Qoda keeps 20% of each 150 ETB consultation fee");
    expect(html).toContain("telebirr (mobile wallet)");

    const form = { intent: "payout-account", bankCode: CBE, accountName: "Test Doctor" };
    const tooShort = await doctor.post("/doctor/profile/payout", { ...form, accountNumber: "12345678" });
    expect(tooShort.status).toBe(400);
    expect(await tooShort.text()).toContain("Account numbers at Commercial Bank of Ethiopia (CBE) have 13 digits.");
    const unknownBank = await doctor.post("/doctor/profile/payout", { ...form, bankCode: "999", accountNumber: "1000123456789" });
    expect(await unknownBank.text()).toContain("That bank is not on the list");
    await doctor.get("/?lng=am");
    const letters = await doctor.post("/doctor/profile/payout", { ...form, accountNumber: "abc" });
    expect(await letters.text()).toContain("የሂሳብ ቁጥር አሃዞችን ብቻ ይይዛል");
    expect(await db.query.doctorPayoutAccounts.findFirst({ where: eq(doctorPayoutAccounts.doctorId, doctorId) })).toBeUndefined();

    const saved = await doctor.post("/doctor/profile/payout", { ...form, accountNumber: "1000 1234 56789" });
    expect(saved.status).toBe(302);
    expect(await db.query.doctorPayoutAccounts.findFirst({ where: eq(doctorPayoutAccounts.doctorId, doctorId) })).toMatchObject({
      bankCode: CBE,
      accountNumber: "1000123456789",
      accountName: "Test Doctor",
    });
    // The profile says where the money goes now, and leads to the details.
    const after = await (await doctor.get("/doctor/profile")).text();
    expect(after).toContain('href="/doctor/profile/payout"');
    expect(after).toContain("መጨረሻው 6789");
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "payout_account.changed"), eq(auditLog.targetId, doctorId)));
    expect(audit).toMatchObject({ actorId: doctorId, details: { accountEnding: "6789" } });
    const email = (await db.query.users.findFirst({ where: eq(users.id, doctorId) }))!.email;
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, email))).toHaveLength(1);
    expect(await db.select().from(notifications).where(eq(notifications.userId, doctorId))).toEqual([
      expect.objectContaining({ kind: "payout_account_changed" }),
    ]);
  });

  it("need the doctor's password again to be changed, are emailed, and hold payouts to the new account for 48 hours", async () => {
    const { doctorId } = await doctorWithEarnings();
    await setPassword(db, doctorId, GOOD_PASSWORD, new Date());
    // Set a week ago: the first setting holds nothing.
    await withPayoutAccount(doctorId, new Date(Date.now() - 7 * 24 * 60 * 60_000));
    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const page = await (await doctor.get("/doctor/profile/payout")).text();
    expect(page).toContain('type="password"');
    expect(page).toContain('autoComplete="current-password"');

    const change = { intent: "payout-account", bankCode: CBE, accountName: "Someone Else", accountNumber: "2000123456789" };
    const noPassword = await doctor.post("/doctor/profile/payout", change);
    expect(noPassword.status).toBe(400);
    expect(await noPassword.text()).toContain("Enter your Qoda password to change where your money goes.");
    const wrong = await doctor.post("/doctor/profile/payout", { ...change, password: "not-my-password" });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain("That password is not right.");
    expect(wrongHtml).not.toContain("not-my-password");
    expect(wrongHtml).toContain("Someone Else");
    expect(await db.query.doctorPayoutAccounts.findFirst({ where: eq(doctorPayoutAccounts.doctorId, doctorId) })).toMatchObject({
      accountNumber: "1000123456789",
    });

    expect((await doctor.post("/doctor/profile/payout", { ...change, password: GOOD_PASSWORD })).status).toBe(302);
    const account = (await db.query.doctorPayoutAccounts.findFirst({ where: eq(doctorPayoutAccounts.doctorId, doctorId) }))!;
    expect(account).toMatchObject({ accountNumber: "2000123456789", accountName: "Someone Else" });
    const email = (await db.query.users.findFirst({ where: eq(users.id, doctorId) }))!.email;
    expect((await db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, email))).map((mail) => mail.subject)).toContain(
      "Your payout details were changed",
    );

    // Held: no run sends the balance to the new account before 48 hours have passed.
    const startsAt = new Date(account.updatedAt.getTime() + PAYOUT_ACCOUNT_HOLD_MS);
    expect((await runPayouts(env, config(), new Date(startsAt.getTime() - 60_000), { adminId: await createUser("admin") })).sent).toBe(0);
    expect(await payoutsOf(doctorId)).toHaveLength(0);
    const held = `Payouts to your new account start on ${formatMoment(startsAt, "en")}.`;
    expect(await (await doctor.get("/doctor/profile/payout")).text()).toContain(held);
    expect(await (await doctor.get("/doctor/earnings")).text()).toContain(held);
    const admin = new Visitor(await sessionCookieFor(await createUser("admin")));
    expect(await (await admin.get("/admin/finance")).text()).toContain(formatMoment(startsAt, "en"));
    await doctor.get("/?lng=am");
    expect(await (await doctor.get("/doctor/earnings")).text()).toContain(formatMoment(startsAt, "am"));

    await runPayouts(env, config(), new Date(startsAt.getTime() + 60_000), { adminId: await createUser("admin") });
    expect(await payoutsOf(doctorId)).toEqual([expect.objectContaining({ accountNumber: "2000123456789", amountSantim: DOCTOR_SHARE })]);
  });

  it("cannot be changed by a doctor without a password (Google only), who is told how", async () => {
    const doctorId = await createUser("doctor");
    await withPayoutAccount(doctorId);
    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const refused = await doctor.post("/doctor/profile/payout", {
      intent: "payout-account",
      bankCode: CBE,
      accountName: "Someone Else",
      accountNumber: "2000123456789",
      password: "anything",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Your account has no Qoda password");
    expect(await db.query.doctorPayoutAccounts.findFirst({ where: eq(doctorPayoutAccounts.doctorId, doctorId) })).toMatchObject({
      accountNumber: "1000123456789",
    });
  });

  it("cannot be changed by a patient or for another doctor", async () => {
    const patient = new Visitor(await sessionCookieFor(await createUser("patient")));
    const refused = await patient.post("/doctor/profile/payout", {
      intent: "payout-account",
      bankCode: CBE,
      accountName: "X",
      accountNumber: "1000123456789",
    });
    expect([302, 403, 404]).toContain(refused.status);
    expect(
      await db
        .select({ n: sql<number>`count(*)` })
        .from(doctorPayoutAccounts)
        .where(eq(doctorPayoutAccounts.accountName, "X")),
    ).toEqual([{ n: 0 }]);
  });
});

describe("a payout run", () => {
  it("sends the available balance once for three runs at once, and the webhook settles it once for 100 replays", async () => {
    const { doctorId } = await doctorWithEarnings();
    await withPayoutAccount(doctorId);
    expect(await available(doctorId)).toBe(DOCTOR_SHARE);

    const now = duringTransferHours();
    const reports = await Promise.all([1, 2, 3].map(() => runPayouts(env, config(), now, "schedule")));
    expect(reports.reduce((sent, report) => sent + (report.sent > 0 ? 1 : 0), 0)).toBeGreaterThanOrEqual(1);
    const [payout, ...more] = await payoutsOf(doctorId);
    expect(more).toHaveLength(0);
    expect(payout).toMatchObject({ amountSantim: DOCTOR_SHARE, status: "pending", accountNumber: "1000123456789" });
    expect(await entriesOfKey(`payout:${payout!.reference}:started`)).toHaveLength(1);
    expect(await available(doctorId)).toBe(0);
    expect(await inTransit(doctorId)).toBe(DOCTOR_SHARE);

    const answers = await Promise.all(Array.from({ length: 100 }, () => payoutWebhook(payout!.reference, "success")));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    expect(await entriesOfKey(`payout:${payout!.reference}:settled`)).toHaveLength(1);
    expect((await payoutsOf(doctorId))[0]).toMatchObject({ status: "succeeded" });
    expect(await inTransit(doctorId)).toBe(0);
    expect(
      await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, doctorId), eq(notifications.kind, "payout_paid"))),
    ).toHaveLength(1);

    // Nothing left to send: a second run sends nothing.
    expect((await runPayouts(env, config(), new Date(), { adminId: await createUser("admin") })).sent).toBe(0);
    // 100 signed webhooks at once take a few seconds on a busy 2-core machine.
  }, 30_000);

  it("pays at most PAYOUTS_PER_RUN doctors a run, says more are due, and the next run pays the rest", async () => {
    // Whoever earlier tests left due is paid first, so every run here starts from no one due.
    while ((await runPayouts(env, config(), new Date(), { adminId: await createUser("admin") })).moreDue);
    const due = [];
    for (let index = 0; index <= PAYOUTS_PER_RUN; index++) {
      const { doctorId } = await doctorWithEarnings();
      await withPayoutAccount(doctorId);
      due.push(doctorId);
    }
    const adminId = await createUser("admin");
    const first = await runPayouts(env, config(), new Date(), { adminId });
    expect(first).toMatchObject({ sent: PAYOUTS_PER_RUN, moreDue: true });
    const second = await runPayouts(env, config(), new Date(), { adminId });
    expect(second).toMatchObject({ sent: 1, moreDue: false });
    for (const doctorId of due) expect(await payoutsOf(doctorId)).toHaveLength(1);
  }, 60_000);

  it("sends nothing below the minimum, nor to a doctor without payout details", async () => {
    const { doctorId } = await doctorWithEarnings();
    // 120 ETB, but no account yet.
    await runPayouts(env, config(), duringTransferHours(), "schedule");
    expect(await payoutsOf(doctorId)).toHaveLength(0);
    expect(await available(doctorId)).toBe(DOCTOR_SHARE);

    const small = await createUser("doctor");
    await withPayoutAccount(small);
    await runPayouts(env, config(), duringTransferHours(), "schedule");
    expect(await payoutsOf(small)).toHaveLength(0);
  });

  it("pays a deactivated doctor what was released to them once their details are valid, and shows admins who is owed but unpaid", async () => {
    const { doctorId } = await doctorWithEarnings();
    const name = `Stranded${doctorId.slice(0, 6)}`;
    await db.update(profiles).set({ firstName: name, lastName: "Doctor" }).where(eq(profiles.userId, doctorId));
    await db.update(doctors).set({ status: "inactive" }).where(eq(doctors.userId, doctorId));
    const admin = new Visitor(await sessionCookieFor(await createUser("admin")));
    const owedRow = async () => {
      const html = await (await admin.get("/admin/finance")).text();
      return html.match(new RegExp(`<li[^>]*data-testid="owed-unpaid"[^>]*>(?:(?!</li>).)*${name}(?:(?!</li>).)*</li>`, "s"))?.[0] ?? null;
    };
    // Deactivated, and no payout details: admins see the doctor, the amount and both reasons.
    const row = await owedRow();
    expect(row).toContain("120.00 ETB");
    expect(row).toContain("Deactivated");
    expect(row).toContain("No payout details");

    await withPayoutAccount(doctorId);
    expect(await owedRow()).toContain("Deactivated");
    await runPayouts(env, config(), duringTransferHours(), "schedule");
    const [payout] = await payoutsOf(doctorId);
    expect(payout).toMatchObject({ amountSantim: DOCTOR_SHARE, accountNumber: "1000123456789" });
    await payoutWebhook(payout!.reference, "success");
    expect((await payoutsOf(doctorId))[0]).toMatchObject({ status: "succeeded" });
    // They cannot sign in: the email tells them.
    const email = (await db.query.users.findFirst({ where: eq(users.id, doctorId) }))!.email;
    expect((await db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, email))).map((mail) => mail.subject)).toContain(
      "Qoda sent you 120 ETB",
    );
    expect(await owedRow()).toBeNull();
  });

  it("gives a failed payout back to the doctor's balance once, and tells them why", async () => {
    const { doctorId } = await doctorWithEarnings();
    await withPayoutAccount(doctorId);
    await setSandboxSwitch(env, "payouts", "fail");
    await runPayouts(env, config(), duringTransferHours(), "schedule");
    const [payout] = await payoutsOf(doctorId);

    await Promise.all(Array.from({ length: 20 }, () => payoutWebhook(payout!.reference, "failed")));
    expect((await payoutsOf(doctorId))[0]).toMatchObject({
      status: "failed",
      failureReason: expect.stringContaining("could not be credited"),
    });
    expect(await entriesOfKey(`payout:${payout!.reference}:returned`)).toHaveLength(1);
    expect(await available(doctorId)).toBe(DOCTOR_SHARE);
    expect(await inTransit(doctorId)).toBe(0);
    expect(
      await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, doctorId), eq(notifications.kind, "payout_failed"))),
    ).toHaveLength(1);

    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const page = await (await doctor.get("/doctor/earnings")).text();
    expect(page).toContain("could not be credited");
    expect(page).toContain("The money is back in your available balance.");
  });

  it("is settled by the job's check when the webhook never comes", async () => {
    const { doctorId } = await doctorWithEarnings();
    await withPayoutAccount(doctorId);
    await setSandboxSwitch(env, "payouts", "drop_webhook");
    const sentAt = duringTransferHours();
    await runPayouts(env, config(), sentAt, "schedule");
    expect((await payoutsOf(doctorId))[0]).toMatchObject({ status: "pending" });
    // Not asked about again before half an hour has passed.
    await movePayoutsOn(env, config(), new Date(sentAt.getTime() + 10 * 60_000));
    expect((await payoutsOf(doctorId))[0]).toMatchObject({ status: "pending" });
    await movePayoutsOn(env, config(), new Date(sentAt.getTime() + 31 * 60_000));
    expect((await payoutsOf(doctorId))[0]).toMatchObject({ status: "succeeded" });
    expect(await inTransit(doctorId)).toBe(0);
  });
});

describe("the doctor's earnings page", () => {
  it("shows what is held, available and paid, by month and consultation, and a CSV of every movement, in both languages", async () => {
    const { doctorId, consultationId } = await doctorWithEarnings();
    const held = await paidConsultation();
    // A second consultation of the same doctor, still held.
    await db.run(sql`UPDATE escrows SET doctor_id = ${doctorId} WHERE consultation_id = ${held.consultationId}`);
    await db.run(sql`UPDATE consultations SET doctor_id = ${doctorId} WHERE id = ${held.consultationId}`);

    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const html = await (await doctor.get("/doctor/earnings")).text();
    expect(html).toMatch(/Held in escrow<\/dt><dd[^>]*>120 ETB/);
    expect(html).toMatch(/Available<\/dt><dd[^>]*>120 ETB/);
    expect(html).toMatch(/Paid out<\/dt><dd[^>]*>0 ETB/);
    expect(html).toContain("1 consultation · 120 ETB");
    expect(html).toContain(`/doctor/consultation/${consultationId}`);
    expect(html).toContain("No payouts yet.");

    const csv = await doctor.get("/doctor/earnings.csv");
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await csv.arrayBuffer());
    // A byte-order mark first, so a spreadsheet reads Amharic names as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).trim().split("\r\n");
    expect(lines[0]).toBe('"Date","What","Consultation","Reference","Amount (ETB)","Available after (ETB)"');
    expect(lines.slice(1)).toEqual([expect.stringContaining(`"Released to you","${consultationId}","","120.00","120.00"`)]);

    await doctor.get("/?lng=am");
    const amharic = await (await doctor.get("/doctor/earnings")).text();
    expect(amharic).toContain("በአደራ ሂሳብ የተያዘ");
    expect(amharic).toContain("1 ምክክር · 120 ብር");
    // Months and dates on the Ethiopian calendar, times on a 24-hour clock.
    expect(amharic).toMatch(new RegExp(`<span class="font-semibold">(${ETHIOPIAN_MONTHS.join("|")}) \\d{4} ዓ\\.ም\\.</span>`));
    const amharicLines = (await (await doctor.get("/doctor/earnings.csv")).text()).trim().split("\r\n");
    expect(amharicLines[0]).toContain('"ቀን"');
    expect(amharicLines[1]).toMatch(new RegExp(`^"(${ETHIOPIAN_MONTHS.join("|")}) \\d{1,2} ቀን \\d{4} ዓ\\.ም\\. \\d{2}:\\d{2}",`));
  });

  it("writes a payout in the CSV as a negative number, not as text a spreadsheet cannot add up", async () => {
    const { doctorId } = await doctorWithEarnings();
    await withPayoutAccount(doctorId);
    expect((await runPayouts(env, config(), duringTransferHours(), "schedule")).sent).toBe(1);
    const doctor = new Visitor(await sessionCookieFor(doctorId));
    const [, released, sent] = (await (await doctor.get("/doctor/earnings.csv")).text()).trim().split("\r\n");
    expect(released).toContain('"120.00","120.00"');
    expect(sent).toContain('"Payout sent"');
    expect(sent).toMatch(/,"-120\.00","0\.00"$/);
  });

  it("is the doctor's own: a patient is turned away", async () => {
    const patient = new Visitor(await sessionCookieFor(await createUser("patient")));
    expect((await patient.get("/doctor/earnings")).status).not.toBe(200);
    expect((await patient.get("/doctor/earnings.csv")).status).not.toBe(200);
  });
});
