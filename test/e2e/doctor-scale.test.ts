import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { DEMO_CONSULTATIONS, DEMO_PASSWORD } from "../support/demo-data";
import { baseUrl, endJourneys, sendRequestDirectly, shortWindowBaseUrl, signInDirectly, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

/**
 * Other journeys leave requests accepted and unpaid; when a payment window closes the request goes back
 * to the queue, and that return is a toast on every doctor's screen. Counting toasts is exact only once
 * none of those is still waiting, so the toast journey runs on the server with seconds-long windows
 * (`shortWindowBaseUrl`) and waits until every consultation still awaiting payment there is one of the
 * demo's (whose 15-minute windows, set when the state was seeded, outlast the run).
 */
const origin = shortWindowBaseUrl;

async function waitUntilOnlyDemoPaymentsAwait(page: Page) {
  const demoConcerns = DEMO_CONSULTATIONS.map((consultation) => consultation.mainConcern);
  await expect
    .poll(
      async () => {
        await page.goto(`${origin}/doctor/consultations?status=accepted_awaiting_payment`);
        const titles = await page.getByTestId("consultation-list").getByRole("listitem").allTextContents();
        return titles.filter((title) => !demoConcerns.some((concern) => title.includes(concern.slice(0, 40))));
      },
      { timeout: 80_000, interval: 2_000 },
    )
    .toEqual([]);
}

describe("a doctor's screen when many requests arrive", () => {
  it("stacks at most three toasts with 'and N more', each with View; Dismiss all clears them", async () => {
    const doctor = await startJourney();
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD, origin);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await waitUntilOnlyDemoPaymentsAwait(doctor.page);
    await doctor.page.goto(`${origin}/doctor/dashboard`, { waitUntil: "networkidle" });

    const first = await startJourney();
    const second = await startJourney();
    await signUpNewPatient(first.page, "Liya", origin);
    await signUpNewPatient(second.page, "Sara", origin);
    const stamp = Date.now();
    for (const [index, patient] of [first, first, first, second, second].entries()) {
      await sendRequestDirectly(patient.page, `Stacked request ${stamp}-${index}`, origin);
    }

    const toasts = doctor.page.getByTestId("request-toast");
    await expect.poll(() => doctor.page.getByTestId("more-toasts").textContent()).toBe("and 2 more");
    expect(await toasts.count()).toBe(3);
    expect(await toasts.first().textContent()).toContain(`Stacked request ${stamp}-4`);
    const view = toasts.first().getByRole("link", { name: "View" });
    expect(await view.getAttribute("href")).toMatch(/^\/doctor\/consultation\/[0-9a-f-]{36}$/);
    await doctor.page.getByRole("button", { name: "Dismiss all" }).click();
    await expect.poll(() => toasts.count()).toBe(0);
    // The dashboard's own list still has them all.
    for (let index = 0; index < 5; index++) {
      await doctor.page
        .getByTestId("waiting-request")
        .filter({ hasText: `Stacked request ${stamp}-${index}` })
        .waitFor();
    }
    expect(doctor.problems.join("\n")).toBe("");
  });

  it("fits a 360 px phone in Amharic, figures included, and shows High in orange", async () => {
    const { page, problems } = await startJourney();
    await signInDirectly(page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await page.waitForURL(/\/doctor\/dashboard$/);
    for (const path of ["/doctor/dashboard?lng=am", "/doctor/consultations?lng=am", "/doctor/patients?lng=am"]) {
      await page.goto(`${baseUrl}${path}`, { waitUntil: "networkidle" });
      const overflowing = await page.evaluate(() => {
        const wide = document.documentElement.scrollWidth > window.innerWidth;
        const clipped = [...document.querySelectorAll<HTMLElement>(".stat, .stat-title, .stat-value")]
          .filter((element) => element.scrollWidth > element.clientWidth + 1)
          .map((element) => element.textContent);
        return { wide, clipped };
      });
      expect(overflowing, path).toEqual({ wide: false, clipped: [] });
    }
    await page.goto(`${baseUrl}/doctor/consultations?lng=en`, { waitUntil: "networkidle" });
    const high = page.locator('[data-priority="high"]').first();
    await high.waitFor();
    // Tailwind's orange-700 (oklch(55.3% 0.195 38.402)), whatever notation the browser reports it in.
    expect(await high.evaluate((element) => getComputedStyle(element).backgroundColor)).toMatch(
      /oklch\(0\.553 0\.195 38\.4|rgb\(194, 65, 12\)/,
    );
    expect(problems.join("\n")).toBe("");
  });
});
