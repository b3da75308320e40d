import { afterEach, describe, expect, inject, it } from "vitest";

import { DEMO_PASSWORD } from "../support/demo-data";
import { baseUrl, endJourneys, fillIntake, path, photoOnDisk, signInDirectly, startJourney, waitingCount } from "./journey";

afterEach(endJourneys);

describe("a request reaches the doctors live", () => {
  it("patient submits with a photo; the doctor's toast and bell update without reload; the doctor accepts; the patient moves to payment", async () => {
    const doctor = await startJourney();
    const patient = await startJourney();

    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await doctor.page.waitForLoadState("networkidle");
    const countBefore = await waitingCount(doctor.page);

    await signInDirectly(patient.page, "hana@qoda.test", DEMO_PASSWORD);
    await patient.page.waitForURL(/\/patient\/dashboard$/);
    await patient.page.goto(`${baseUrl}/patient/new-consultation`, { waitUntil: "networkidle" });
    expect(await patient.page.getByTestId("step-indicator").textContent()).toBe("Step 1 of 3");
    await patient.page.getByTestId("photo-input").setInputFiles(photoOnDisk());
    await patient.page.locator('[data-testid="photo-upload"][data-status="done"]').waitFor();
    await patient.page.getByTestId("wizard-next").click();
    await patient.page.waitForURL(/step=2/);
    const complaint = `Blisters on my feet ${Date.now()}`;
    await patient.page.getByLabel("What is going on with your skin?").fill(complaint);
    await fillIntake(patient.page);
    await patient.page.getByLabel("High", { exact: true }).check();
    await patient.page.getByRole("button", { name: "Submit request" }).click();
    await patient.page.waitForURL(/step=3/);
    expect(await patient.page.getByTestId("waiting-screen").getAttribute("data-state")).toBe("looking");

    // Live, without a reload (how fast is `npm run bench:lobby`'s to measure, not a test's).
    const toast = doctor.page.getByTestId("request-toast").filter({ hasText: complaint });
    await toast.waitFor();
    await expect.poll(() => waitingCount(doctor.page)).toBe(countBefore + 1);
    expect(await toast.textContent()).toContain("Hana · 1 photo");
    // The intake's triage line, first thing the doctor reads.
    expect(await toast.getByTestId("triage-line").textContent()).toBe("F, 34 · left forearm · 3 weeks");

    await toast.getByTestId("accept-request").click();
    await doctor.page.waitForURL(/\/doctor\/consultation\//);
    await expect.poll(() => doctor.page.getByTestId("consultation-title").textContent()).toBe(complaint);
    const awaitingPayment = doctor.page.getByTestId("awaiting-payment");
    await expect.poll(() => awaitingPayment.textContent()).toContain("Waiting for patient to complete payment…");
    // And how long the patient has left, ticking.
    expect(await awaitingPayment.getByRole("timer").textContent()).toMatch(/^\d+:\d\d$/);

    await expect.poll(() => patient.page.getByTestId("waiting-screen").getAttribute("data-state")).toBe("found");
    await patient.page.waitForURL(/\/patient\/payment\//);
    // The window is the one this run is configured with (global-setup), counting down from its start.
    const windowMinutes = Math.floor(inject("paymentWindowSeconds") / 60);
    await expect
      .poll(() => patient.page.getByTestId("payment-countdown").textContent())
      .toMatch(new RegExp(`^(${windowMinutes}|${windowMinutes - 1}):\\d\\d$`));
    expect(path(patient.page)).toMatch(/^\/patient\/payment\/[0-9a-f-]{36}$/);

    // Away from the page, the dashboard counts down too, and the email says where to pay.
    await patient.page.goto(`${baseUrl}/patient/dashboard`);
    const countdown = patient.page.getByTestId("pending-payment").filter({ hasText: complaint }).getByRole("timer");
    const shown = await countdown.textContent();
    await expect.poll(() => countdown.textContent()).not.toBe(shown);
    await patient.page.goto(`${baseUrl}/dev/outbox`);
    const mail = patient.page.locator('[data-testid="outbox-message"][data-to="hana@qoda.test"]').filter({ hasText: complaint });
    await mail.first().waitFor();
    expect(await mail.first().getByTestId("outbox-link").first().getAttribute("href")).toMatch(/\/patient\/payment\/[0-9a-f-]{36}$/);
    expect(doctor.problems.join("\n")).toBe("");
    expect(patient.problems.join("\n")).toBe("");
  });
});
