// The money of a consultation as the people who live it (issue 16): a patient confirms their ended
// consultation complete and the doctor's share is theirs; a patient disputes one in Amharic, the doctor
// answers once and an admin refunds part of it, read on the patient's page, their receipt and the
// sandbox; a payout run that the sandbox makes fail, back into the doctor's balance; then a run that
// pays, and the doctor's payout details changed with their password, held for 48 hours. The
// consultations are made through the app by new patients; the payouts start from Dr. Abebe's seeded
// wallet and balance (test/support/demo-data.ts).
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_ACCOUNTS, DEMO_CONSULTATIONS, DEMO_PASSWORD } from "../support/demo-data";
import { acceptDirectly, consultationIdIn, endDirectly, payDirectly } from "./arrange";
import { baseUrl, endJourneys, path, sendRequestDirectly, signInDirectly, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === "admin")!;
const ABEBE = DEMO_ACCOUNTS.find((account) => account.email === "dr.abebe@qoda.test")!;

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** A figure at the top of the doctor's earnings page ("Available": "120 ETB"), in birr. */
async function figure(page: Page, label: string) {
  const value = page
    .getByRole("term")
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd[1]");
  return Number((await value.textContent())?.replace(/ (ETB|ብር)$/, ""));
}

/** The doctor's line for one consultation on their earnings page, found by the patient's first name. */
const earningsLine = (page: Page, section: string, patientFirstName: string) =>
  page
    .getByRole("region", { name: section })
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: new RegExp(`^${patientFirstName}[,፣] `) }) });

/**
 * A patient's rating page, watched: the news its consultation's room tells it, and, once `hold()` is
 * called, every read of its data (its `.data` requests) held until `release()`, and the reads the page
 * itself cuts short.
 */
function watchReads(page: Page, consultationId: string) {
  const reads = new RegExp(`/patient/feedback/${consultationId}\\.data`);
  let newsHeard = 0;
  page.on("websocket", (socket) => {
    if (socket.url().includes(consultationId))
      socket.on("framereceived", ({ payload }) => String(payload).includes('"timeline"') && newsHeard++);
  });
  const cutShort: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let heldOne!: () => void;
  const firstHeld = new Promise<void>((resolve) => (heldOne = resolve));
  const hold = async () => {
    page.on("requestfailed", (request) => {
      if (reads.test(request.url())) cutShort.push(`${request.url()}: ${request.failure()?.errorText}`);
    });
    await page.route(reads, async (route) => {
      heldOne();
      await released;
      // A read the page cut short while held is already answered (as failed): nothing left to continue.
      await route.continue().catch(() => {});
    });
    return newsHeard;
  };
  return { hold, firstHeld, release, cutShort, newsHeard: () => newsHeard };
}

async function signInAs(page: Page, email: string, home: RegExp) {
  await signInDirectly(page, email, DEMO_PASSWORD);
  await page.waitForURL(home);
}

/**
 * A new patient's consultation with Dr. Abebe, ended: the request sent, accepted, paid in the sandbox
 * and ended with a summary through the app's forms (walked through the pages in payments.test.ts).
 * Returns its id.
 */
async function endedConsultation(doctor: Page, patient: Page, patientFirstName: string) {
  await signInAs(doctor, ABEBE.email, /\/doctor\/dashboard$/);
  await signUpNewPatient(patient, patientFirstName);
  const id = consultationIdIn(await sendRequestDirectly(patient, `Rough, itchy patches on my shins ${Date.now()}`));
  await acceptDirectly(doctor, id);
  await payDirectly(patient, id);
  await endDirectly(doctor, id, {
    diagnosis: "Asteatotic eczema",
    treatmentPlan: "A thick emollient twice daily; lukewarm, short showers.",
  });
  return id;
}

describe("the money of a consultation", () => {
  it("a patient confirms their ended consultation complete, and the doctor's 120 ETB is available", async () => {
    const doctor = await startJourney();
    const patient = await startJourney();
    const id = await endedConsultation(doctor.page, patient.page, "Mekdes");

    await doctor.page.goto(`${baseUrl}/doctor/earnings`);
    const heldBefore = await figure(doctor.page, "Held in escrow");
    const availableBefore = await figure(doctor.page, "Available");
    const line = earningsLine(doctor.page, "By consultation", "Mekdes");
    expect(await line.textContent()).toContain("Held120 ETB");

    // Opened again later, the ended consultation asks for feedback, and says where the money is and until when.
    await patient.page.goto(`${baseUrl}/patient/consultation/${id}`);
    await patient.page.waitForURL(new RegExp(`/patient/feedback/${id}$`));
    const payment = patient.page.getByRole("region", { name: "Your payment" });
    expect(await payment.textContent()).toMatch(
      /Your payment of 150 ETB is held in escrow\. It will be released to Dr\. Abebe on .+ unless you open a dispute before then\./,
    );
    expect(await fitsWidth(patient.page)).toBe(true);
    await expectAccessible(patient.page);
    await payment.getByRole("button", { name: "My consultation is complete" }).click();
    await patient.page.getByText("Thank you. Your payment has been released to the doctor.").waitFor();
    expect(path(patient.page)).toBe(`/patient/feedback/${id}`);
    await expect.poll(() => payment.textContent()).toMatch(/Your payment of 150 ETB was released to Dr\. Abebe on \d{1,2} \w{3} \d{4}\./);
    // Released, it can no longer be disputed or released again.
    expect(await payment.getByRole("button", { name: "My consultation is complete" }).count()).toBe(0);
    expect(await patient.page.getByRole("region", { name: "Dispute" }).count()).toBe(0);

    // The doctor's share is theirs: out of the held figure, into the available one.
    await doctor.page.reload();
    expect(await figure(doctor.page, "Held in escrow")).toBe(heldBefore - 120);
    expect(await figure(doctor.page, "Available")).toBe(availableBefore + 120);
    expect(await line.textContent()).toContain("Released120 ETB");
    expect(await fitsWidth(doctor.page)).toBe(true);
    await expectAccessible(doctor.page);
    expect(doctor.problems).toEqual([]);
    expect(patient.problems).toEqual([]);
  });

  it("in Amharic: a patient disputes, the doctor answers once, an admin refunds 50 ETB, and the refund is on the page, the receipt and the sandbox", async () => {
    const doctor = await startJourney();
    const patient = await startJourney({ slowPhone: true });
    const admin = await startJourney();
    const id = await endedConsultation(doctor.page, patient.page, "Bethlehem");
    const words = "ሽፍታው ከሁለት ሳምንት በኋላም አልተሻለም፤ ምክሩም ግልጽ አልነበረም።";

    // The doctor keeps the ended consultation open, its room heard (it says the status on joining).
    const roomHeard = new Promise<void>((resolve) =>
      doctor.page.on("websocket", (socket) => {
        if (socket.url().includes(id)) socket.on("framereceived", () => resolve());
      }),
    );
    await doctor.page.goto(`${baseUrl}/doctor/consultation/${id}?lng=am`);
    await roomHeard;
    const doctorsDispute = doctor.page.getByRole("region", { name: "ቅሬታ" });
    expect(await doctorsDispute.count()).toBe(0);

    // The patient, within the 72 hours, opens a dispute from the page the ended consultation leads to.
    const patientsReads = watchReads(patient.page, id);
    await patient.page.goto(`${baseUrl}/patient/feedback/${id}?lng=am`);
    expect(await patient.page.getAttribute("html", "lang")).toBe("am");
    const dispute = patient.page.getByRole("region", { name: "ቅሬታ" });
    expect(await dispute.textContent()).toMatch(/አልረኩም\? እስከ .+ ድረስ \(በስልክዎ ላይ በሚታየው ሰዓት\) ቅሬታ ማቅረብ ይችላሉ። ቅሬታ ካቀረቡ /);
    await dispute.getByText("ቅሬታ ያቅርቡ").click();
    await dispute.getByRole("button", { name: "ቅሬታውን ይላኩ" }).click();
    await patient.page.getByText("ችግሩ ምን እንደነበር ይምረጡ።").waitFor();
    expect(await patient.page.getByText("ምን እንደተፈጠረ ይንገሩን።").isVisible()).toBe(true);
    await expectAccessible(patient.page);
    await dispute.getByLabel("ችግሩ ምን ነበር?").selectOption({ label: "ምክክሩ አልጠቀመም" });
    await dispute.getByLabel("ምን እንደተፈጠረ ይንገሩን").fill(words);
    await dispute.getByRole("button", { name: "ቅሬታውን ይላኩ" }).click();
    await patient.page.getByText("ቅሬታዎ ተልኳል። እስኪወሰን ድረስ ክፍያው በአደራ ሂሳብ ይቆያል።").waitFor();
    const payment = patient.page.getByRole("region", { name: "ክፍያዎ" });
    await expect.poll(() => payment.textContent()).toContain("ቅሬታዎ እስኪወሰን ድረስ የከፈሉት 150 ብር በአደራ ሂሳብ ይቆያል።");
    expect(await dispute.textContent()).toMatch(/በ.+ በዚህ ምክክር ላይ ቅሬታ አቅርበዋል፦ ምክክሩ አልጠቀመም።/);
    expect(await dispute.textContent()).toContain(`የእርስዎ ቃል፦ «${words}»`);
    expect(await fitsWidth(patient.page)).toBe(true);
    await expectAccessible(patient.page);

    // The doctor's open page shows the dispute without a reload.
    await expect.poll(() => doctorsDispute.count()).toBe(1);
    expect(await doctorsDispute.textContent()).toContain(`የታካሚው ቃል፦ «${words}»`);
    expect(doctor.problems).toEqual([]);

    // The doctor is told, opens the consultation from the notification and answers, once.
    await doctor.page.goto(`${baseUrl}/notifications?lng=am`);
    await doctor.page
      .getByTestId("notification")
      .filter({ hasText: "አንድ ታካሚ በምክክር ላይ ቅሬታ አቅርበዋል። እርስዎ አንድ ጊዜ መልስ መስጠት ይችላሉ።" })
      .first()
      .getByRole("button", { name: "ይመልከቱ" })
      .click();
    await doctor.page.waitForURL(new RegExp(`/doctor/consultation/${id}$`));
    expect(await doctorsDispute.textContent()).toContain(`የታካሚው ቃል፦ «${words}»`);
    const answer = "ክሬሙን በቀን ሁለት ጊዜ እንዲቀቡ ነግሬአቸዋለሁ፤ ለክትትል እንደገና ቢጠይቁ እረዳቸዋለሁ።";
    await doctorsDispute.getByLabel("መልስዎ (አንድ ጊዜ ብቻ መመለስ ይችላሉ)").fill(answer);
    // The patient's page is slow to read the answer: its read is held until the admin has decided too,
    // so the decision's news comes while the page is still reading the answer.
    const newsBeforeAnswer = await patientsReads.hold();
    await doctorsDispute.getByRole("button", { name: "መልሱን ይላኩ" }).click();
    await doctor.page.getByText("መልስዎ ለታካሚውና ለ«ቆዳ» አስተዳዳሪዎች ተልኳል።").waitFor();
    await expect.poll(() => doctorsDispute.textContent()).toContain(`የእርስዎ መልስ፦ «${answer}»`);
    expect(await doctorsDispute.getByRole("textbox").count()).toBe(0);
    expect(await fitsWidth(doctor.page)).toBe(true);
    await expectAccessible(doctor.page);
    await patientsReads.firstHeld;

    // An admin finds it waiting, and refunds 50 ETB of it with a note both sides read.
    await signInAs(admin.page, ADMIN.email, /\/admin\/dashboard$/);
    await admin.page.goto(`${baseUrl}/admin/finance?lng=am`);
    await admin.page.getByRole("link", { name: /^\d+ ክፍት ቅሬታ/ }).click();
    await admin.page.waitForURL(/\/admin\/finance\/disputes$/);
    const card = admin.page.getByRole("article").filter({ hasText: words });
    expect(await card.textContent()).toContain(answer);
    expect(await fitsWidth(admin.page)).toBe(true);
    await expectAccessible(admin.page);
    await card.getByLabel("ከፊሉን ለታካሚው ተመላሽ ያድርጉ፣ ቀሪውን ለሐኪሙ ይልቀቁ").check();
    await card.getByLabel("ከፊል ተመላሽ ከሆነ፣ ተመላሽ የሚደረገው መጠን (ብር፣ ከ150 በታች)").fill("50");
    const note = "ምክክሩ ተካሂዷል፤ ነገር ግን ምክሩ በቂ ስላልነበረ 50 ብር ይመለሳል።";
    await card.getByLabel("ለሁለቱም ወገኖች ማስታወሻ").fill(note);
    await card.getByRole("button", { name: "ይወስኑ" }).click();
    await admin.page.getByText("በቅሬታው ላይ ተወስኗል፤ ሁለቱም ወገኖች ተነግሯቸዋል።").waitFor();
    await expect.poll(() => card.getByTestId("decision").textContent()).toBe(`ውሳኔ፦ 50 ብር ለታካሚው ተመላሽ ተደርጓል፤ 100 ብር ለሐኪሙ ተለቋል። — ${note}`);

    // The patient's page, left open, reads the answer and the decision without a reload, one read after
    // the other: the decision's news waited for the read of the answer instead of cutting it short.
    await expect.poll(patientsReads.newsHeard).toBeGreaterThanOrEqual(newsBeforeAnswer + 2);
    patientsReads.release();
    await expect.poll(() => dispute.textContent()).toContain(`የዶ/ር Abebe መልስ፦ «${answer}»`);
    await expect.poll(() => dispute.textContent()).toContain("ውሳኔ፦ 50 ብር ለታካሚው ተመላሽ ተደርጓል፤ 100 ብር ለሐኪሙ ተለቋል።");
    expect(patientsReads.cutShort).toEqual([]);
    // And (once the payment service has settled it) the refund.
    expect(await dispute.textContent()).toContain(`የአስተዳዳሪው ማስታወሻ፦ «${note}»`);
    const refunded = /ከከፈሉት 150 ብር ውስጥ 50 ብር በ.+ ተመላሽ ተደርጎልዎታል፤ ቀሪው 100 ብር ለዶ\/ር Abebe ተለቋል።/;
    await expect
      .poll(async () => {
        await patient.page.reload();
        return payment.textContent();
      })
      .toMatch(refunded);
    await payment.getByRole("link", { name: "ደረሰኝዎን ይመልከቱ ወይም ያትሙ" }).click();
    await patient.page.waitForURL(/\/patient\/payment\/[^/]+\/receipt$/);
    await patient.page.getByRole("heading", { name: "የክፍያ ደረሰኝ" }).waitFor();
    expect(await patient.page.getByTestId("receipt-amount").textContent()).toBe("150 ብር");
    expect(await patient.page.getByTestId("receipt-state").textContent()).toBe("በከፊል ተመላሽ ተደርጓል");
    expect(await patient.page.getByTestId("receipt-state-line").textContent()).toMatch(refunded);
    expect(await fitsWidth(patient.page)).toBe(true);
    await expectAccessible(patient.page);
    const txRef = await patient.page.getByTestId("receipt-tx-ref").textContent();
    await patient.page.goto(`${baseUrl}/notifications`);
    await patient.page.getByTestId("notification").filter({ hasText: "በቅሬታ ላይ ውሳኔ ተሰጥቷል።" }).waitFor();

    // The doctor reads the decision on the consultation left open, without a reload, and the 80 ETB share
    // of the rest on their earnings.
    await expect.poll(() => doctorsDispute.textContent()).toContain(`የአስተዳዳሪው ማስታወሻ፦ «${note}»`);
    await doctor.page.goto(`${baseUrl}/doctor/earnings`);
    expect(await earningsLine(doctor.page, "በምክክር", "Bethlehem").textContent()).toContain("የተለቀቀ80 ብር");

    // The payment sandbox shows the refund of that payment.
    await admin.page.goto(`${baseUrl}/dev/payments`);
    const sandboxRefund = admin.page.getByTestId("sandbox-refund").filter({ hasText: txRef! });
    expect(await sandboxRefund.textContent()).toContain("50 ብር");
    expect(await sandboxRefund.textContent()).toContain("ተመላሽ ተደርጓል");
    for (const journey of [doctor, patient, admin]) expect(journey.problems).toEqual([]);
  });

  it("with the sandbox set to fail transfers, a payout run fails: the doctor reads why, and the money is back in Available", async () => {
    const doctor = await startJourney();
    const admin = await startJourney();
    await signInAs(doctor.page, ABEBE.email, /\/doctor\/dashboard$/);
    await doctor.page.getByRole("link", { name: "Earnings" }).click();
    await doctor.page.waitForURL(/\/doctor\/earnings$/);
    const available = await figure(doctor.page, "Available");
    expect(available).toBeGreaterThanOrEqual(100);

    await signInAs(admin.page, ADMIN.email, /\/admin\/dashboard$/);
    await admin.page.goto(`${baseUrl}/dev/payments`);
    const transfers = admin.page.getByRole("group", { name: "Transfers to doctors" });
    await transfers.getByLabel("Take the transfer, then let it fail").check();
    await transfers.getByRole("button", { name: "Save" }).click();
    try {
      await admin.page.getByText("The sandbox setting is saved.").waitFor();
      expect(await transfers.getByLabel("Take the transfer, then let it fail").isChecked()).toBe(true);
      expect(await fitsWidth(admin.page)).toBe(true);
      await expectAccessible(admin.page);

      await admin.page.goto(`${baseUrl}/admin/finance`);
      await admin.page.getByRole("button", { name: "Run payouts now" }).click();
      // The provider took the transfer, so the run sent it; its webhook said it failed before the run's answer.
      await admin.page.getByText("Payout run: 1 sent, 1 failed.").waitFor();
      const failed = admin.page
        .getByTestId("payout-row")
        .filter({ hasText: `${available.toFixed(2)} ETB` })
        .last();
      expect(await failed.textContent()).toContain("Failed");
      expect(await failed.textContent()).toContain("Why: The receiving account could not be credited (sandbox: payouts are set to fail)");

      // The doctor reads it failed and why, with the money back in their available balance, and is told.
      await doctor.page.reload();
      const payout = doctor.page.getByRole("region", { name: "Payouts" }).getByRole("listitem").first();
      expect(await payout.textContent()).toContain(`${available} ETBFailed`);
      expect(await payout.textContent()).toContain(
        "Failed: The receiving account could not be credited (sandbox: payouts are set to fail). The money is back in your available balance.",
      );
      expect(await figure(doctor.page, "Available")).toBe(available);
      expect(await figure(doctor.page, "On its way")).toBe(0);
      expect(await fitsWidth(doctor.page)).toBe(true);
      await expectAccessible(doctor.page);
      await doctor.page.goto(`${baseUrl}/notifications`);
      await doctor.page.getByTestId("notification").filter({ hasText: "A payout failed; the money is back in your balance." }).waitFor();
    } finally {
      // Transfers succeed again for whoever comes next, whatever happened above.
      await admin.page.request.post(`${baseUrl}/dev/payments`, {
        headers: { Origin: baseUrl },
        form: { intent: "switch", switch: "payouts", setting: "succeed" },
      });
    }
    expect(doctor.problems).toEqual([]);
    expect(admin.problems).toEqual([]);
  });

  it("an admin runs payouts and the doctor's earnings show it Paid with its reference; new payout details need the password and wait 48 hours", async () => {
    const doctor = await startJourney();
    const admin = await startJourney();
    await signInAs(doctor.page, ABEBE.email, /\/doctor\/dashboard$/);
    await doctor.page.goto(`${baseUrl}/doctor/earnings`);
    const available = await figure(doctor.page, "Available");
    const paidOut = await figure(doctor.page, "Paid out");
    expect(available).toBeGreaterThanOrEqual(100);

    // An admin runs the payouts now, from the finance page.
    await signInAs(admin.page, ADMIN.email, /\/admin\/dashboard$/);
    await admin.page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Finance" }).click();
    await admin.page.waitForURL(/\/admin\/finance$/);
    await admin.page.getByRole("button", { name: "Run payouts now" }).click();
    await admin.page.getByText("Payout run: 1 sent, 0 failed.").waitFor();
    expect(await fitsWidth(admin.page)).toBe(true);
    await expectAccessible(admin.page);

    // The doctor's earnings: paid, to the seeded wallet, under the reference the admin sees among those paid.
    await doctor.page.reload();
    const payout = doctor.page.getByRole("region", { name: "Payouts" }).getByRole("listitem").first();
    await expect.poll(() => payout.textContent()).toContain(`${available} ETBPaid`);
    expect(await payout.textContent()).toMatch(/To telebirr ••0002, sent \d{1,2} \w{3} \d{4}Paid on \d{1,2} \w{3} \d{4}Reference: /);
    const reference = (await payout.textContent())!.replace(/^.*Reference: /, "");
    expect(await figure(doctor.page, "Available")).toBe(0);
    expect(await figure(doctor.page, "Paid out")).toBe(paidOut + available);
    await admin.page.reload();
    expect(await admin.page.getByTestId("payouts-paid").getByText(reference, { exact: true }).isVisible()).toBe(true);
    await doctor.page.goto(`${baseUrl}/notifications`);
    await doctor.page.getByTestId("notification").filter({ hasText: "A payout reached your account." }).waitFor();

    // From the earnings to the payout details of the profile: a wallet from the list, its name and number,
    // and the doctor's password to confirm the change.
    await doctor.page.goto(`${baseUrl}/doctor/earnings`);
    await doctor.page.getByRole("link", { name: "Your payout details" }).click();
    await doctor.page.waitForURL(/\/doctor\/profile\/payout$/);
    const details = doctor.page.getByRole("region", { name: "Payout details" });
    await details.getByLabel("Bank or mobile wallet").selectOption({ label: "telebirr (mobile wallet)" });
    await details.getByLabel("Name on the account").fill("Abebe Kebede");
    await details.getByLabel("Account or wallet number").fill("091122334");
    await details.getByRole("button", { name: "Save payout details" }).click();
    await doctor.page.getByText("Account numbers at telebirr have 10 digits.").waitFor();
    expect(await details.getByLabel("Account or wallet number").inputValue()).toBe("091122334");
    await expectAccessible(doctor.page);
    await details.getByLabel("Account or wallet number").fill("0911223344");
    await details.getByRole("button", { name: "Save payout details" }).click();
    await doctor.page.getByText("Enter your Qoda password to change where your money goes.").waitFor();
    await details.getByLabel("Your Qoda password (to confirm the change)").fill(DEMO_PASSWORD);
    await details.getByRole("button", { name: "Save payout details" }).click();
    await doctor.page.getByText("Your payout details were saved. We have emailed you about the change.").waitFor();
    await expect
      .poll(() => details.textContent())
      .toContain("Your payouts go to telebirr, account ending 3344, in the name of Abebe Kebede.");
    expect(await details.textContent()).toMatch(/Payouts to your new account start on \d{1,2} \w{3} \d{4}, \d{2}:\d{2}\./);
    expect(await fitsWidth(doctor.page)).toBe(true);
    await expectAccessible(doctor.page);

    // Admins see the hold beside the payouts.
    await admin.page.reload();
    expect(await admin.page.getByTestId("payout-accounts-held").textContent()).toMatch(
      /Dr\. Abebe Kebede: payouts to the new account at telebirr \(ending 3344\) start on \d{1,2} \w{3} \d{4}, \d{2}:\d{2}\./,
    );
    await expectAccessible(admin.page);
    expect(doctor.problems).toEqual([]);
    expect(admin.problems).toEqual([]);
  });

  it("an admin refunds the seeded dispute in full, and the payment sandbox refunds its seeded payment", async () => {
    const seeded = DEMO_CONSULTATIONS.find((consultation) => consultation.money === "disputed")!;
    const admin = await startJourney();
    await signInAs(admin.page, ADMIN.email, /\/admin\/dashboard$/);
    await admin.page.goto(`${baseUrl}/admin/finance/disputes`);
    const card = admin.page.getByTestId("dispute").filter({ hasText: seeded.mainConcern });
    await card.getByLabel("Refund all of it to the patient").check();
    await card.getByLabel("Note to both sides").fill("No plan for when it comes back: refunded in full.");
    await card.getByRole("button", { name: "Decide" }).click();
    await admin.page.getByText("The dispute is decided, and both sides have been told.").waitFor();

    // The sandbox found the seeded transaction and refunded it (it refused one it did not know).
    await admin.page.goto(`${baseUrl}/dev/payments`);
    const refund = admin.page.getByTestId("sandbox-refund").filter({ hasText: `demo-${seeded.id.slice(-4)}` });
    expect(await refund.textContent()).toContain("150 ETB");
    expect(await refund.textContent()).toContain("Refunded");
    expect(admin.problems).toEqual([]);
  });
});
