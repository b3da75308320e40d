// A follow-up reaches the same doctor (issue 17, item 7): a new patient's consultation with Dr. Abebe,
// ended with "new photos in 7 days"; the patient rates it, asks Dr. Abebe again from the consultation,
// goes through the wizard, and the request reaches Dr. Abebe's screen live, marked as a follow-up of
// his consultation; he opens it, reads the earlier consultation beside it, and accepts it.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../support/demo-data";
import { baseUrl, endJourneys, fillIntake, path, sendRequestDirectly, signInDirectly, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

const ABEBE = DEMO_ACCOUNTS.find((account) => account.email === "dr.abebe@qoda.test")!;

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/**
 * A new patient's consultation with Dr. Abebe, as both live it: sent, accepted from the dashboard, paid
 * in the sandbox, and ended with a summary that asks for new photos in 7 days. Returns its id.
 */
async function endedConsultation(doctor: Page, patient: Page, complaint: string) {
  await signInDirectly(doctor, ABEBE.email, DEMO_PASSWORD);
  await doctor.waitForURL(/\/doctor\/dashboard$/);
  await signUpNewPatient(patient, "Tigist");
  await sendRequestDirectly(patient, complaint);

  await doctor.goto(`${baseUrl}/doctor/dashboard`);
  await doctor.getByTestId("waiting-request").filter({ hasText: complaint }).getByRole("link", { name: /View/ }).click();
  await doctor.waitForURL(/\/doctor\/consultation\//);
  await doctor.getByRole("button", { name: "Accept" }).click();
  await doctor.getByTestId("awaiting-payment").waitFor();

  await patient.goto(`${baseUrl}/patient/dashboard`);
  await patient.getByTestId("pending-payment").filter({ hasText: complaint }).getByRole("link", { name: "Pay" }).click();
  await patient.waitForURL(/\/patient\/payment\//);
  await patient.getByRole("button", { name: "Pay 150 ETB" }).click();
  await patient.waitForURL(/\/dev\/payments\/checkout\//);
  await patient.getByRole("button", { name: "Pay", exact: true }).click();
  await patient.waitForURL(/\/patient\/consultation\//);
  const id = path(patient).split("/").pop()!;

  await doctor.getByTestId("payment-received").waitFor();
  await doctor.reload();
  await doctor.getByLabel("Diagnosis").fill("Scabies");
  await doctor.getByLabel("Treatment plan").fill("Permethrin 5% cream on the whole body, repeated after a week.");
  await doctor.getByLabel("New photos in (days)").fill("7");
  await doctor.getByText("End consultation…").click();
  await doctor.getByRole("button", { name: "Yes, end the consultation" }).click();
  await doctor.waitForURL(/\/doctor\/thank-you$/);
  return id;
}

describe("a follow-up with the same doctor", () => {
  it("is asked from the completed consultation and reaches the same doctor first, marked, with the earlier consultation beside it", async () => {
    const doctor = await startJourney();
    const patient = await startJourney();
    const stamp = Date.now();
    const id = await endedConsultation(doctor.page, patient.page, `Itchy bumps between my fingers ${stamp}`);

    // Rated first (the consultation asks for it), then the consultation offers to ask Dr. Abebe again.
    await patient.page.goto(`${baseUrl}/patient/consultation/${id}`);
    await patient.page.waitForURL(new RegExp(`/patient/feedback/${id}$`));
    await patient.page.getByLabel("5 stars").check();
    await patient.page.getByRole("button", { name: "Send feedback" }).click();
    await patient.page.getByText("Thank you for your feedback!").waitFor();
    await patient.page.goto(`${baseUrl}/patient/consultation/${id}`);
    const askAgain = patient.page.getByTestId("ask-again");
    expect(await askAgain.textContent()).toMatch(/Dr\. Abebe asked you to send new photos on \d{1,2} \w{3} \d{4}\./);
    expect(await fitsWidth(patient.page)).toBe(true);
    await expectAccessible(patient.page);

    // The doctor's screen is open when the follow-up is sent.
    await doctor.page.goto(`${baseUrl}/doctor/dashboard`, { waitUntil: "networkidle" });
    await askAgain.getByRole("link", { name: "Ask Dr. Abebe again" }).click();
    await patient.page.waitForURL(new RegExp(`/patient/new-consultation\\?followUp=${id}$`));
    await patient.page.getByTestId("follow-up-notice").getByText("Follow-up with Dr. Abebe").waitFor();
    await patient.page.getByTestId("wizard-next").click();
    await patient.page.waitForURL(new RegExp(`step=2&followUp=${id}$`));
    const followUpComplaint = `Still itchy at night after the second treatment ${stamp}`;
    await patient.page.locator('textarea[name="chiefComplaint"]').fill(followUpComplaint);
    await fillIntake(patient.page);
    await patient.page.getByRole("button", { name: "Submit request" }).click();
    await patient.page.waitForURL(/step=3/);

    // Live, on Dr. Abebe's list: marked as a follow-up of his consultation.
    const item = doctor.page.getByTestId("waiting-request").filter({ hasText: followUpComplaint });
    await item.getByTestId("follow-up-of-yours").waitFor();
    expect(await item.getByTestId("follow-up-of-yours").textContent()).toBe(`Follow-up of your consultation ${id.slice(0, 8)}`);
    await item.getByRole("link", { name: /View/ }).click();
    await doctor.page.waitForURL(/\/doctor\/consultation\//);
    const earlier = doctor.page.getByTestId("earlier-consultation");
    expect(await earlier.textContent()).toContain("Diagnosis: Scabies");
    expect(await earlier.getByRole("link", { name: "Open the earlier consultation" }).getAttribute("href")).toBe(
      `/doctor/consultation/${id}`,
    );
    expect(await fitsWidth(doctor.page)).toBe(true);
    await expectAccessible(doctor.page);
    // (The toast that announced it has an Accept of its own: this is the page's.)
    await doctor.page.locator("#main").getByRole("button", { name: "Accept" }).click();
    await doctor.page.getByTestId("accept-confirmation").waitFor();

    expect(doctor.problems).toEqual([]);
    expect(patient.problems).toEqual([]);
  });
});
