import { afterEach, describe, expect, it } from "vitest";

import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoConsultationIn } from "../../scripts/demo-data";
import { baseUrl, endJourneys, signIn, startJourney } from "./journey";

afterEach(endJourneys);

const hana = DEMO_ACCOUNTS.find((account) => account.email === "hana@qoda.test")!;
const hanasConsultation = demoConsultationIn("in_progress", (consultation) => consultation.patientId === hana.id);

describe("a flaky network loses nothing", () => {
  it("a signed-in patient's consultation reads again offline, and signing out leaves none of it behind", async () => {
    const { browser, page, problems } = await startJourney();
    await signIn(page, hana.email, DEMO_PASSWORD);
    await page.waitForURL(/\/patient\/dashboard$/);
    const consultationUrl = `${baseUrl}/patient/consultation/${hanasConsultation.id}`;
    await page.goto(consultationUrl, { waitUntil: "networkidle" });
    const title = await page.getByTestId("consultation-title").textContent();

    // The browser's own word: a service worker is registered and active for this site.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration?.active?.scriptURL)))
      .toBe(`${baseUrl}/sw.js`);
    // It keeps the page this visit opened (fetched once it watched), to be read again offline.
    await expect.poll(() => page.evaluate((url) => caches.match(url).then(Boolean), consultationUrl)).toBe(true);

    await browser.setOffline(true);
    await page.reload();
    expect(await page.getByTestId("consultation-title").textContent()).toBe(title);
    await browser.setOffline(false);

    await page.goto(consultationUrl, { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.evaluate(() => caches.has("qoda-pages"))).toBe(false);
    // The next page signed out (a reload here) takes the worker away too.
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then(Boolean))).toBe(false);
    expect(problems).toEqual([]);
  });
});
