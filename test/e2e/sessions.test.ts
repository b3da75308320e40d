import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { DEMO_PASSWORD } from "../support/demo-data";
import { baseUrl, droppableSockets, endJourneys, fillIntake, signInDirectly, startJourney } from "./journey";

afterEach(endJourneys);

/** Resolves once a lobby socket of the page has had its first message (the queue a doctor is sent on joining). */
function joinsTheLobby(page: Page) {
  return new Promise<void>((resolve) =>
    page.on("websocket", (socket) => {
      if (socket.url().includes("/parties/doctors-lobby/")) socket.once("framereceived", () => resolve());
    }),
  );
}

describe("a live page after its session ends", () => {
  it("a doctor who signs out in another tab sees the open dashboard say so, and it receives no more requests", async () => {
    const doctor = await startJourney();
    const patient = await startJourney();
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await doctor.page.waitForLoadState("networkidle");

    const otherTab = await doctor.browser.newPage();
    await otherTab.goto(`${baseUrl}/doctor/dashboard`);
    await otherTab.getByRole("button", { name: "Sign out" }).click();
    await otherTab.waitForURL(/\/login$/);

    const notice = doctor.page.getByRole("alert").filter({ hasText: "You have been signed out" });
    await notice.waitFor();
    expect(await notice.textContent()).toContain("Your session has ended, so this page no longer updates.");
    expect(await notice.getByRole("link", { name: "Sign in again" }).getAttribute("href")).toBe("/login?redirect=%2Fdoctor%2Fdashboard");

    // A request sent now never reaches the signed-out page: the same doctor, signed in afresh in another
    // browser, sees it arrive, and by then it would have reached the old page too.
    const witness = await startJourney();
    const witnessJoined = joinsTheLobby(witness.page);
    await signInDirectly(witness.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await witness.page.waitForURL(/\/doctor\/dashboard$/);
    await witnessJoined;
    await signInDirectly(patient.page, "dawit@qoda.test", DEMO_PASSWORD);
    await patient.page.waitForURL(/\/patient\/dashboard$/);
    await patient.page.goto(`${baseUrl}/patient/new-consultation?step=2`, { waitUntil: "networkidle" });
    const complaint = `After sign-out ${Date.now()}`;
    await patient.page.getByLabel("What is going on with your skin?").fill(complaint);
    await fillIntake(patient.page);
    await patient.page.getByRole("button", { name: "Submit request" }).click();
    await patient.page.waitForURL(/step=3/);
    await witness.page.getByTestId("request-toast").filter({ hasText: complaint }).waitFor();
    expect(await doctor.page.getByTestId("request-toast").filter({ hasText: complaint }).count()).toBe(0);

    // Following the link signs in again and comes back.
    await notice.getByRole("link", { name: "Sign in again" }).click();
    await doctor.page.waitForURL(/\/login\?redirect=/);
    expect(doctor.problems.join("\n")).toBe("");
  });

  it("a dashboard whose connection was lost while the doctor signed out elsewhere says so when it comes back", async () => {
    const doctor = await startJourney();
    // The dashboard's lobby sockets pass through links the journey can drop.
    const links = await droppableSockets(doctor.page, "doctors-lobby");
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await expect.poll(() => links.length).toBeGreaterThan(0);
    for (const link of links) link.lost = true;

    const otherTab = await doctor.browser.newPage();
    await otherTab.goto(`${baseUrl}/doctor/dashboard`);
    await otherTab.getByRole("button", { name: "Sign out" }).click();
    await otherTab.waitForURL(/\/login$/);
    const notice = doctor.page.getByRole("alert").filter({ hasText: "You have been signed out" });
    expect(await notice.count()).toBe(0);

    // The signal comes back: the room no longer lets this session in, and the page learns why.
    for (const link of links) await link.socket.close({ code: 1012, reason: "Signal back" });
    await notice.waitFor();
    expect(await notice.textContent()).toContain("Your session has ended, so this page no longer updates.");
  });
});
