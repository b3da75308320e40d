// A consultation's timeline as its patient watches it move, at 360 px: on the dashboard when Dr. Abebe
// accepts the request and when it is paid (in another tab), on the consultation's page when he ends it
// with his summary and when she confirms it complete there; each step with its time, the current one
// marked; and the dashboard in Amharic.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_ACCOUNTS, DEMO_CONSULTATIONS, DEMO_PASSWORD } from "../support/demo-data";
import { rateDirectly } from "./arrange";
import { baseUrl, endJourneys, path, sendRequestDirectly, signInDirectly, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

const ABEBE = DEMO_ACCOUNTS.find((account) => account.email === "dr.abebe@qoda.test")!;

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** The timeline under its heading, and the step marked as current in it. */
const timeline = (page: Page, heading: string) => page.getByRole("region", { name: heading });
const currentStep = (page: Page, heading: string) => timeline(page, heading).locator('li[aria-current="step"]');

/**
 * Opens `url` and resolves once `sockets` of the page's sockets to a consultation's room have heard from
 * it (the room sends each its status first): from then on, the page hears what happens.
 */
async function openListening(page: Page, url: string, sockets = 1) {
  let heard = 0;
  const listening = new Promise<void>((resolve) => {
    page.on("websocket", (socket) => {
      if (!socket.url().includes("/parties/consultation-room/")) return;
      socket.once("framereceived", () => {
        heard += 1;
        if (heard >= sockets) resolve();
      });
    });
  });
  await page.goto(url);
  await listening;
}

describe("a consultation's timeline", () => {
  it("moves live as the doctor accepts, the patient pays and the doctor ends it with a summary", async () => {
    const doctor = await startJourney();
    const patient = await startJourney();
    await signInDirectly(doctor.page, ABEBE.email, DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await signUpNewPatient(patient.page, "Meron");
    const complaint = `Itchy ring-shaped patches on my neck ${Date.now()}`;
    await sendRequestDirectly(patient.page, complaint);

    // The dashboard follows the new request: sent, and a doctor to accept it next.
    const dashboard = patient.page;
    // Its two sockets to the request's room: the waiting request's and the timeline's.
    await openListening(dashboard, `${baseUrl}/patient/dashboard`, 2);
    const followed = timeline(dashboard, "Your consultation's timeline");
    const id = (await followed.getByRole("link", { name: complaint }).getAttribute("href"))!.split("/").pop()!;
    expect(await currentStep(dashboard, "Your consultation's timeline").textContent()).toMatch(
      /^Request sent\d\d? \w{3} \d{4}, \d\d:\d\d$/,
    );
    // Compact: the one step next, not all of them.
    expect(await followed.locator('li[data-state="next"]').filter({ visible: true }).count()).toBe(1);
    expect(await followed.locator('li[data-state="next"]').first().textContent()).toBe("A doctor accepts itStill to come");

    // The consultation's page in a second tab, its timeline in full.
    const page = await patient.browser.newPage();
    const heard: string[] = [];
    page.on("websocket", (socket) => socket.on("framereceived", ({ payload }) => heard.push(String(payload))));
    await openListening(page, `${baseUrl}/patient/consultation/${id}`);
    expect(await timeline(page, "Timeline").getByRole("listitem").count()).toBe(8);
    expect(await currentStep(page, "Timeline").textContent()).toContain("Request sent");

    // Dr. Abebe accepts: the dashboard says so, with its time, without a reload.
    await doctor.page.goto(`${baseUrl}/doctor/dashboard`);
    await doctor.page.getByTestId("waiting-request").filter({ hasText: complaint }).getByRole("link", { name: /View/ }).click();
    await doctor.page.waitForURL(/\/doctor\/consultation\//);
    await doctor.page.getByRole("button", { name: "Accept" }).click();
    await doctor.page.getByTestId("awaiting-payment").waitFor();
    await currentStep(dashboard, "Your consultation's timeline").filter({ hasText: "Accepted by Dr. Abebe" }).waitFor();
    expect(await currentStep(dashboard, "Your consultation's timeline").locator("time").getAttribute("datetime")).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );

    // The consultation's page goes on to the payment by itself; paying there, the dashboard hears it.
    await page.waitForURL(/\/patient\/payment\//);
    await page.getByRole("button", { name: "Pay 150 ETB" }).click();
    await page.waitForURL(/\/dev\/payments\/checkout\//);
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.waitForURL(new RegExp(`/patient/consultation/${id}$`));
    await currentStep(dashboard, "Your consultation's timeline").filter({ hasText: "Chat with the doctor began" }).waitFor();
    await timeline(dashboard, "Your consultation's timeline").getByRole("listitem").filter({ hasText: "Paid" }).waitFor();

    // Back on the consultation's page (its timeline read on arrival), the doctor ends it: the summary step comes live.
    await page.locator('[data-testid="chat"][data-live]').waitFor();
    expect(await currentStep(page, "Timeline").textContent()).toContain("Chat with the doctor began");
    await doctor.page.getByTestId("payment-received").waitFor();
    await doctor.page.reload();
    await doctor.page.getByLabel("Diagnosis").fill("Tinea corporis");
    await doctor.page.getByLabel("Treatment plan").fill("Clotrimazole cream twice daily for three weeks.");
    await doctor.page.getByText("End consultation…").click();
    await doctor.page.getByRole("button", { name: "Yes, end the consultation" }).click();
    await doctor.page.waitForURL(/\/doctor\/thank-you$/);
    await currentStep(page, "Timeline").filter({ hasText: "The doctor's summary is ready" }).waitFor();
    await page.getByTestId("consultation-ended").waitFor();
    const steps = timeline(page, "Timeline").getByRole("listitem");
    expect(await steps.evaluateAll((items) => items.map((item) => item.getAttribute("data-state")))).toEqual([
      "done",
      "done",
      "done",
      "done",
      "current",
      "next",
      "next",
      "next",
    ]);
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page);

    // Rated, the consultation's page stays hers: she confirms it complete there. The room's news of the
    // release reads the page again, its timeline with it; the timeline does not ask the server again alone.
    await rateDirectly(page, id);
    await openListening(page, `${baseUrl}/patient/consultation/${id}`);
    const timelineReads: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.endsWith("/timeline")) timelineReads.push(request.url());
    });
    const newsBefore = heard.filter((frame) => frame.includes('"timeline"')).length;
    await page.getByRole("region", { name: "Your payment" }).getByRole("button", { name: "My consultation is complete" }).click();
    await page.getByText("Thank you. Your payment has been released to the doctor.").waitFor();
    expect(path(page)).toBe(`/patient/consultation/${id}`);
    await currentStep(page, "Timeline").filter({ hasText: "Payment released to Dr. Abebe" }).waitFor();
    await expect.poll(() => heard.filter((frame) => frame.includes('"timeline"')).length).toBeGreaterThan(newsBefore);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(timelineReads).toEqual([]);

    // Reloaded in Amharic, the dashboard reads the same steps in Amharic, with Ethiopian dates.
    await dashboard.goto(`${baseUrl}/patient/dashboard?lng=am`);
    const amharic = timeline(dashboard, "የምክክርዎ ሂደት");
    await amharic.getByRole("listitem").filter({ hasText: "ዶ/ር Abebe ተቀብለውታል" }).waitFor();
    expect(await amharic.locator("time").first().textContent()).toMatch(/ዓ\.ም\. \d\d:\d\d$/);
    expect(await fitsWidth(dashboard)).toBe(true);
    await expectAccessible(dashboard);
    expect(doctor.problems.join("\n")).toBe("");
    expect(patient.problems.join("\n")).toBe("");
  });

  it("on the rating page, stops trying its room after three opens that never got through, instead of every 5 s while the page is open", async () => {
    const awaiting = DEMO_CONSULTATIONS.find((consultation) => consultation.awaitsFeedback)!;
    const patient = DEMO_ACCOUNTS.find((account) => account.id === awaiting.patientId)!;
    const { page, problems } = await startJourney();
    await signInDirectly(page, patient.email, DEMO_PASSWORD);
    await page.waitForURL(/\/patient\/dashboard$/);
    // Every socket to the room is refused before it opens (a proxy that will not carry them, say), and the page's
    // clock is the test's: its 5-second waits pass when the test moves it.
    await page.addInitScript(() => {
      const counts = { opens: 0, closes: 0 };
      Object.assign(window, { roomSockets: counts });
      window.WebSocket = class extends window.WebSocket {
        constructor(url: string | URL, protocols?: string | string[]) {
          const toRoom = String(url).includes("/parties/consultation-room/");
          super(toRoom ? String(url).replace("/parties/", "/no-such-room/") : url, protocols);
          if (!toRoom) return;
          counts.opens += 1;
          // Before the page's own listener: once a close is counted, the page has handled it too.
          this.addEventListener("close", () => (counts.closes += 1));
        }
      };
    });
    await page.clock.install();
    await page.goto(`${baseUrl}/patient/feedback/${awaiting.id}`);
    const sockets = () => page.evaluate(() => (window as unknown as { roomSockets: { opens: number; closes: number } }).roomSockets);
    await expect
      .poll(async () => {
        await page.clock.runFor(1_000);
        return sockets();
      })
      .toEqual({ opens: 3, closes: 3 });
    // A minute on, lived in steps as a page lives it, it has not tried again.
    for (let step = 0; step < 6; step += 1) await page.clock.runFor(10_000);
    expect(await sockets()).toEqual({ opens: 3, closes: 3 });
    // A socket that failed is a console message of Chromium's own, not the page's error.
    expect(problems).toEqual([]);
  });
});
