// Paying, closing and rating, as a patient and a doctor live them: the sandbox checkout, "Payment
// Received" on the doctor's side, the summary and the end, feedback, deleting the photos; a payment
// window left to close; and the same payment and feedback without JavaScript.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_PASSWORD } from "../support/demo-data";
import {
  baseUrl,
  droppableSockets,
  endJourneys,
  fillIntake,
  shortWindowBaseUrl,
  signInDirectly,
  signUpNewPatient,
  startJourney,
} from "./journey";

afterEach(endJourneys);

function photoOnDisk() {
  const file = join(mkdtempSync(join(tmpdir(), "qoda-photo-")), "rash.png");
  writeFileSync(
    file,
    Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC", "base64"),
  );
  return file;
}

/** The new patient on `page` sends a request with one photo; returns its complaint. */
async function sendRequestWithPhoto(page: Page, origin = baseUrl) {
  await page.goto(`${origin}/patient/new-consultation`, { waitUntil: "networkidle" });
  await page.getByTestId("photo-input").setInputFiles(photoOnDisk());
  await page.locator('[data-testid="photo-upload"][data-status="done"]').waitFor();
  await page.getByTestId("wizard-next").click();
  await page.waitForURL(/step=2/);
  const complaint = `Red patches on my elbows ${Date.now()}`;
  await page.getByLabel("What is going on with your skin?").fill(complaint);
  await fillIntake(page);
  await page.getByRole("button", { name: "Submit request" }).click();
  await page.waitForURL(/step=3/);
  return complaint;
}

/** Dr. Abebe opens the request from the dashboard's live list and accepts it. */
async function acceptFromDashboard(page: Page, complaint: string, origin = baseUrl) {
  await page.goto(`${origin}/doctor/dashboard`);
  const item = page.getByTestId("waiting-request").filter({ hasText: complaint });
  await item.waitFor();
  await item.getByRole("link", { name: /View/ }).click();
  await page.waitForURL(/\/doctor\/consultation\//);
  await page.getByRole("button", { name: "Accept" }).click();
  await page.getByTestId("awaiting-payment").waitFor();
}

/**
 * Dr. Abebe signed in on his dashboard, and a new patient called `firstName` signed in, both on `origin`;
 * the patient on a slow phone when asked.
 */
async function abebeAndNewPatient(firstName: string, origin = baseUrl, patientPhone: { slowPhone?: boolean } = {}) {
  const doctor = await startJourney();
  const patient = await startJourney(patientPhone);
  await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD, origin);
  await doctor.page.waitForURL(/\/doctor\/dashboard$/);
  await signUpNewPatient(patient.page, firstName, origin);
  return { doctor, patient };
}

describe("paying, closing and rating", () => {
  it("the patient pays in the sandbox, the doctor ends with a summary, the patient rates it and deletes the photos", async () => {
    // The path every patient takes, on a low-end phone: requests, pays, reads the summary, rates.
    const { doctor, patient } = await abebeAndNewPatient("Selam", baseUrl, { slowPhone: true });
    const doctorLinks = await droppableSockets(doctor.page, "consultation-room");
    const complaint = await sendRequestWithPhoto(patient.page);
    await acceptFromDashboard(doctor.page, complaint);
    // While waiting, the doctor sees the patient's time left.
    expect(await doctor.page.getByTestId("awaiting-payment").getByRole("timer").textContent()).toMatch(/^\d+:\d\d$/);
    // The doctor's signal drops until after the payment; the live news itself is heard in the money,
    // timeline and follow-up journeys.
    await expect.poll(() => doctorLinks.length).toBeGreaterThan(0);
    for (const link of doctorLinks) link.lost = true;

    await patient.page.waitForURL(/\/patient\/payment\//);
    await patient.page.getByText("If the consultation cannot go ahead after you have paid, your payment is refunded.").waitFor();
    // Who accepted, before paying: the doctor's card.
    const card = patient.page.getByRole("region", { name: "Dr. Abebe Kebede" });
    expect(await card.textContent()).toContain("9 years of experience");
    expect(await card.textContent()).toContain("Speaks: Amharic, English");
    // The demo doctor's picture, served to this patient.
    const picture = card.getByRole("img", { name: "Photo of Dr. Abebe Kebede" });
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    expect(await card.textContent()).toMatch(/consultations? completed on Qoda/);
    expect(await card.textContent()).toContain("Licence verified by Qoda on");
    // The payment page open in a second tab too: both tabs' Pay lead to one checkout, so only one payment can be made.
    const secondTab = await patient.page.context().newPage();
    await secondTab.goto(patient.page.url());
    await patient.page.getByRole("button", { name: "Pay 150 ETB" }).click();
    await patient.page.waitForURL(/\/dev\/payments\/checkout\//);
    await secondTab.getByRole("button", { name: "Pay 150 ETB" }).click();
    await secondTab.waitForURL(/\/dev\/payments\/checkout\//);
    expect(secondTab.url()).toBe(patient.page.url());
    await secondTab.close();
    await patient.page.getByRole("button", { name: "Pay", exact: true }).click();
    await patient.page.waitForURL(/\/patient\/consultation\//);
    await patient.page.getByText("Payment Received").first().waitFor();
    await patient.page.getByText("The doctor is paid only after the consultation has ended.").waitFor();

    // The signal comes back after the news went out: the room says where things stand, and the page what happened.
    for (const link of doctorLinks) await link.socket.close({ code: 1012, reason: "Signal back" });
    await doctor.page.getByTestId("payment-received").waitFor();
    expect(await doctor.page.getByTestId("payment-received").textContent()).toContain("Payment Received");
    await doctor.page.reload();

    // Ending needs a diagnosis and a plan; what was typed stays.
    await doctor.page.getByLabel("Observations").fill("Symmetric scaly plaques on both elbows.");
    await doctor.page.getByText("End consultation…").click();
    await doctor.page.getByRole("button", { name: "Yes, end the consultation" }).click();
    await doctor.page.getByText("Consultation End Error").waitFor();
    await expectAccessible(doctor.page);
    expect(await doctor.page.getByLabel("Observations").inputValue()).toBe("Symmetric scaly plaques on both elbows.");
    await doctor.page.getByLabel("Diagnosis").fill("Plaque psoriasis");
    await doctor.page.getByLabel("Treatment plan").fill("Betamethasone cream once daily for two weeks.");
    await doctor.page.getByRole("button", { name: "Save summary" }).click();
    await doctor.page.getByText("Summary Saved").waitFor();
    await doctor.page.getByText("End consultation…").click();
    await doctor.page.getByRole("button", { name: "Yes, end the consultation" }).click();
    await doctor.page.waitForURL(/\/doctor\/thank-you$/);

    // The patient's page says it ended, live, and leads to the summary and the feedback; what the end
    // changed shows without a reload: the summary, and the payment panel's "complete" and dispute.
    await patient.page.getByTestId("consultation-ended").waitFor();
    await patient.page.getByRole("button", { name: "My consultation is complete" }).waitFor();
    expect(await patient.page.getByText("The doctor is paid only after the consultation has ended.").count()).toBe(0);
    await patient.page.getByText("Plaque psoriasis").first().waitFor();
    expect(patient.page.url()).toMatch(/\/patient\/consultation\//);
    await patient.page.getByRole("region", { name: "Dispute" }).waitFor();
    // She confirms from the page she kept open, and is led on to rate it.
    await patient.page.getByRole("button", { name: "My consultation is complete" }).click();
    await patient.page.getByText("Thank you. Your payment has been released to the doctor.").waitFor();
    await patient.page.waitForURL(/\/patient\/feedback\//);
    await patient.page.getByText("Plaque psoriasis").waitFor();
    await patient.page.getByRole("button", { name: "Send feedback" }).click();
    await patient.page.getByText("Missing info").waitFor();
    await expectAccessible(patient.page);
    await patient.page.getByLabel("4 stars").check();
    await patient.page.getByLabel("Your message (optional)").fill("Clear and kind.");
    await patient.page.getByRole("button", { name: "Send feedback" }).click();
    await patient.page.getByText("Thank you for your feedback!").waitFor();

    // The notifications tell the patient what happened; the consultation shows the feedback; photos go for good.
    await patient.page.goto(`${baseUrl}/notifications`);
    await patient.page.getByText("Your doctor's summary is ready.").waitFor();
    await patient.page.getByRole("button", { name: "View" }).first().click();
    await patient.page.waitForURL(/\/patient\/consultation\//);
    await patient.page.getByTestId("given-feedback").getByText("Clear and kind.").waitFor();
    const photoLink = await patient.page.getByTestId("photo-thumbnail").first().getAttribute("href");
    await patient.page.getByText("Delete my photos…").click();
    await patient.page.getByRole("button", { name: "Yes, delete my photos" }).click();
    await patient.page.getByText("1 photo deleted").waitFor();
    expect((await patient.page.request.get(`${baseUrl}${photoLink}`)).status()).toBe(404);
    expect(doctor.problems.join("\n")).toBe("");
    expect(patient.problems.join("\n")).toBe("");
  });

  it("a payment window left to close sends the request back to the queue, and both sides hear it", async () => {
    // On the server whose window is seconds long, so the journey watches it close.
    const origin = shortWindowBaseUrl;
    const { doctor, patient } = await abebeAndNewPatient("Liya", origin);
    const complaint = await sendRequestWithPhoto(patient.page, origin);
    await acceptFromDashboard(doctor.page, complaint, origin);
    await patient.page.waitForURL(/\/patient\/payment\//);

    const windowMs = inject("shortPaymentWindowSeconds") * 1_000;
    await patient.page.getByText("Payment Time Expired").waitFor({ timeout: windowMs + 15_000 });
    expect(await patient.page.getByText("Consultation returned to the queue.").isVisible()).toBe(true);

    // Back in the queue (the doctor finds it there) and accepted again while the patient's page is still
    // open: the page offers a new window to pay in (not the first one's 0:00), and says when it closes too.
    await acceptFromDashboard(doctor.page, complaint, origin);
    const countdown = patient.page.getByTestId("payment-countdown");
    await expect.poll(async () => (await countdown.allTextContents()).some((text) => text !== "0:00")).toBe(true);
    await patient.page.getByText("Payment Time Expired").waitFor({ timeout: windowMs + 15_000 });
  });

  it("when both pages' connections come back after the window closed unheard, the patient is told and the doctor sees the request back in the queue", async () => {
    const origin = shortWindowBaseUrl;
    const { doctor, patient } = await abebeAndNewPatient("Meron", origin);
    // Every consultation socket of both pages passes through here; a lost one hears nothing, not even its closing.
    const patientLinks = await droppableSockets(patient.page, "consultation-room");
    const doctorLinks = await droppableSockets(doctor.page, "consultation-room");
    const complaint = await sendRequestWithPhoto(patient.page, origin);
    await acceptFromDashboard(doctor.page, complaint, origin);
    await patient.page.waitForURL(/\/patient\/payment\//);
    // The payment page's own socket is open, then the signal drops on both phones.
    await expect.poll(() => patientLinks.some((link) => /\/patient\/payment\//.test(link.openedOn))).toBe(true);
    await expect.poll(() => doctorLinks.length).toBeGreaterThan(0);
    for (const link of [...patientLinks, ...doctorLinks]) link.lost = true;

    // The window closes unheard: the request is back in the doctors' queue.
    const elsewhere = await doctor.page.context().newPage();
    await elsewhere.goto(`${origin}/doctor/dashboard`);
    await elsewhere.getByTestId("waiting-request").filter({ hasText: complaint }).waitFor({ timeout: 20_000 });
    await elsewhere.close();
    expect(await patient.page.getByText("Payment Time Expired").count()).toBe(0);
    expect(await doctor.page.getByTestId("awaiting-payment").isVisible()).toBe(true);

    // The signal comes back (the sockets reconnect). The patient's page hears the status and says the
    // window closed; the room no longer lets the doctor in, and the doctor's page learns why and shows
    // the request as it is now.
    for (const link of [...patientLinks, ...doctorLinks]) await link.socket.close({ code: 1012, reason: "Signal back" });
    await patient.page.getByText("Payment Time Expired").waitFor();
    expect(await patient.page.getByText("Consultation returned to the queue.").isVisible()).toBe(true);
    await doctor.page.getByRole("article").getByRole("button", { name: "Accept" }).waitFor();
    expect(await doctor.page.getByTestId("awaiting-payment").count()).toBe(0);
  });

  it("works without JavaScript: paying in the sandbox and giving feedback", async () => {
    const doctor = await startJourney();
    const patient = await startJourney({ javaScriptEnabled: false });
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await signUpNewPatient(patient.page, "Kidist");
    const complaint = `Itchy wrists ${Date.now()}`;
    await patient.page.goto(`${baseUrl}/patient/new-consultation?step=2`);
    await patient.page.getByLabel("What is going on with your skin?").fill(complaint);
    await fillIntake(patient.page);
    await patient.page.getByRole("button", { name: "Submit request" }).click();
    await patient.page.waitForURL(/step=3/);
    await acceptFromDashboard(doctor.page, complaint);

    await patient.page.goto(`${baseUrl}/patient/dashboard`);
    await patient.page.getByTestId("pending-payment").filter({ hasText: complaint }).getByRole("link", { name: "Pay" }).click();
    await patient.page.waitForURL(/\/patient\/payment\//);
    await patient.page.getByRole("button", { name: "Pay 150 ETB" }).click();
    await patient.page.getByRole("button", { name: "Pay", exact: true }).click();
    await patient.page.waitForURL(/\/patient\/consultation\//);
    await patient.page.getByText("Payment Received").first().waitFor();

    await doctor.page.reload();
    await doctor.page.getByLabel("Diagnosis").fill("Contact dermatitis");
    await doctor.page.getByLabel("Treatment plan").fill("Avoid the new watch strap; hydrocortisone 1% for a week.");
    await doctor.page.getByText("End consultation…").click();
    await doctor.page.getByRole("button", { name: "Yes, end the consultation" }).click();
    await doctor.page.waitForURL(/\/doctor\/thank-you$/);

    await patient.page.reload();
    await patient.page.waitForURL(/\/patient\/feedback\//);
    await patient.page.getByLabel("You may contact me about my feedback").check();
    await patient.page.getByLabel("5 stars").check();
    await patient.page.getByRole("button", { name: "Send feedback" }).click();
    await patient.page.getByText("Missing info").waitFor();
    expect(await patient.page.getByLabel("5 stars").isChecked()).toBe(true);
    await patient.page.getByLabel("How should we contact you?").selectOption("phone");
    await patient.page.getByLabel("Your Telegram username, phone number or email").fill("+251911234567");
    await patient.page.getByRole("button", { name: "Send feedback" }).click();
    await patient.page.getByText("Thank you for your feedback!").waitFor();
  });
});
