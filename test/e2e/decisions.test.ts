import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_PASSWORD } from "../support/demo-data";
import { baseUrl, endJourneys, fillIntake, path, signInDirectly, signUpNewPatient, startJourney, waitingCount } from "./journey";

afterEach(endJourneys);

async function sendRequest(page: Page, complaint: string) {
  await page.goto(`${baseUrl}/patient/new-consultation`);
  await page.getByTestId("wizard-next").click();
  await page.getByLabel("What is going on with your skin?").fill(complaint);
  await fillIntake(page);
  await page.getByRole("button", { name: "Submit request" }).click();
  await page.waitForURL(/step=3/);
  await expect.poll(() => page.getByTestId("waiting-screen").getAttribute("data-state")).toBe("looking");
}

describe("a doctor declines, and the patient hears why", () => {
  it("the waiting screen changes live; starting again keeps the words; the dashboard and the email say so too", async () => {
    const doctor = await startJourney();
    const patient = await startJourney();
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    const email = await signUpNewPatient(patient.page, "Meron");
    const complaint = `Blurry photo of a rash ${Date.now()}`;
    await sendRequest(patient.page, complaint);

    // The doctor's dashboard list shows the new request without a reload.
    const item = doctor.page.getByTestId("waiting-request").filter({ hasText: complaint });
    await item.waitFor();
    expect(await item.textContent()).toContain("Meron · 0 photos");
    await item.getByRole("link", { name: /View/ }).click();
    await doctor.page.waitForURL(/\/doctor\/consultation\//);
    await doctor.page.getByText("Decline this request…").click();
    await doctor.page.getByRole("button", { name: "Decline request" }).click();
    await expect.poll(() => doctor.page.getByText("Please choose why you are declining.").isVisible()).toBe(true);
    // A state no address brings back (the form's errors) is checked where it stands.
    await expectAccessible(doctor.page);
    await doctor.page.getByLabel("Photos not clear enough (ask for new ones)").check();
    await doctor.page.getByRole("button", { name: "Decline request" }).click();
    await doctor.page.waitForURL(/\/doctor\/consultations$/);

    await expect.poll(() => patient.page.getByTestId("waiting-screen").getAttribute("data-state")).toBe("declined");
    expect(await patient.page.getByTestId("decline-reason").textContent()).toContain("The photos are not clear enough.");
    await patient.page.getByRole("link", { name: "Start a new consultation" }).click();
    await patient.page.waitForURL(/step=1&draft=.*again=1/);
    await patient.page.getByText("We kept what you wrote last time.").waitFor();
    await patient.page.getByTestId("wizard-next").click();
    await patient.page.waitForURL(/step=2/);
    expect(await patient.page.getByLabel("What is going on with your skin?").inputValue()).toBe(complaint);

    await patient.page.goto(`${baseUrl}/patient/dashboard`);
    const declined = patient.page.getByTestId("declined-requests");
    expect(await declined.textContent()).toContain("The photos are not clear enough.");
    await patient.page.goto(`${baseUrl}/dev/outbox`);
    const mail = patient.page.locator(`[data-testid="outbox-message"][data-to="${email}"]`).filter({ hasText: "could not take" });
    await mail.first().waitFor();
    expect(doctor.problems.join("\n")).toBe("");
    expect(patient.problems.join("\n")).toBe("");
  });
});

describe("a patient withdraws a waiting request", () => {
  it("after confirming, it leaves the doctor's list and bell live", async () => {
    const doctor = await startJourney();
    const patient = await startJourney();
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await signUpNewPatient(patient.page, "Yonas");
    const complaint = `Changed my mind ${Date.now()}`;
    await sendRequest(patient.page, complaint);
    const item = doctor.page.getByTestId("waiting-request").filter({ hasText: complaint });
    await item.waitFor();
    const countWith = await waitingCount(doctor.page);

    await patient.page.getByText("Withdraw this request…").click();
    await patient.page.getByRole("button", { name: "Yes, withdraw it" }).click();
    await patient.page.waitForURL(/\/patient\/consultation\//);
    await patient.page.getByText("You withdrew this request").waitFor();

    await item.waitFor({ state: "detached" });
    await expect.poll(() => waitingCount(doctor.page)).toBe(countWith - 1);
    expect(path(patient.page)).toMatch(/^\/patient\/consultation\/[0-9a-f-]{36}$/);
    expect(doctor.problems.join("\n")).toBe("");
    expect(patient.problems.join("\n")).toBe("");
  });
});
