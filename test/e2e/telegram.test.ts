// Telegram through the Bot API stand-in: a patient links Telegram from their profile (the deep link
// opens the stand-in's chat, where they press Start), and hears there that a doctor accepted, with the
// payment link.
import { afterEach, describe, expect, it } from "vitest";

import { DEMO_PASSWORD } from "../support/demo-data";
import { baseUrl, endJourneys, path, sendRequestDirectly, signInDirectly, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

describe("Telegram notifications", () => {
  it("a patient links Telegram from the profile and receives 'accepted' there", async () => {
    const doctor = await startJourney();
    const patient = await startJourney();
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await signUpNewPatient(patient.page, "Hanna");

    await patient.page.goto(`${baseUrl}/patient/profile`);
    await patient.page.getByRole("link", { name: "Link Telegram" }).click();
    await patient.page.waitForURL(/\/patient\/profile\/telegram$/);
    await patient.page.getByRole("button", { name: "Link Telegram" }).click();
    await patient.page.waitForURL(/\/dev\/telegram\/start\?start=/);
    const chatId = await patient.page.getByLabel("Chat").inputValue();
    await patient.page.getByRole("button", { name: "Start", exact: true }).click();
    await patient.page.waitForURL(/\/dev\/outbox/);
    const chat = patient.page.locator(`[data-testid="telegram-message"][data-chat="${chatId}"]`);
    await chat.filter({ hasText: "Telegram is linked to your Qoda account" }).waitFor();
    await patient.page.goto(`${baseUrl}/patient/profile/telegram`);
    await patient.page.getByRole("button", { name: "Unlink Telegram" }).waitFor();

    const complaint = `Dry patches ${Date.now()}`;
    await sendRequestDirectly(patient.page, complaint);
    await doctor.page.goto(`${baseUrl}/doctor/dashboard`);
    const item = doctor.page.getByTestId("waiting-request").filter({ hasText: complaint });
    await item.waitFor();
    await item.getByRole("link", { name: /View/ }).click();
    await doctor.page.waitForURL(/\/doctor\/consultation\//);
    await doctor.page.getByRole("button", { name: "Accept" }).click();
    await doctor.page.getByTestId("awaiting-payment").waitFor();

    // Sent after the doctor's answer: the stand-in's chat shows it once it has arrived.
    const accepted = chat.filter({ hasText: "A dermatologist accepted your request" });
    await expect
      .poll(async () => {
        await patient.page.goto(`${baseUrl}/dev/outbox`);
        return accepted.count();
      })
      .toBe(1);
    await accepted.getByTestId("outbox-link").click();
    expect(path(patient.page)).toMatch(/^\/patient\/payment\//);
    expect(doctor.problems.join("\n")).toBe("");
    expect(patient.problems.join("\n")).toBe("");
  });
});
