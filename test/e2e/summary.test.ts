// A completed consultation's printable summary as its patient keeps it: reached from the feedback page,
// in English with the Ethiopian date beside the Gregorian, printed (print media, A4) on one page; then
// in Amharic, with English below on request, still one page per language.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_ACCOUNTS, DEMO_CONSULTATIONS, DEMO_PASSWORD } from "../support/demo-data";
import { baseUrl, endJourneys, signInDirectly, startJourney } from "./journey";

afterEach(endJourneys);

/** How many pages the page prints on, as Chromium lays it out for A4. */
async function printedPages(page: Page) {
  const pdf = await page.pdf({ format: "A4", preferCSSPageSize: true });
  return (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
}

describe("the printable summary", () => {
  it("reaches its patient from the feedback page and prints on one A4 page, in English and in Amharic", async () => {
    const awaiting = DEMO_CONSULTATIONS.find((consultation) => consultation.awaitsFeedback)!;
    const patient = DEMO_ACCOUNTS.find((account) => account.id === awaiting.patientId)!;
    const { page } = await startJourney();
    await signInDirectly(page, patient.email, DEMO_PASSWORD);
    await page.waitForURL(/\/patient\/dashboard$/);
    await page.goto(`${baseUrl}/patient/consultation/${awaiting.id}`);
    await page.waitForURL(new RegExp(`/patient/feedback/${awaiting.id}$`));
    await page.getByRole("link", { name: "Printable summary" }).click();
    await page.waitForURL(new RegExp(`/patient/consultation/${awaiting.id}/summary$`));
    await page.getByRole("heading", { level: 1, name: "Consultation summary" }).waitFor();
    expect(await page.getByText(awaiting.summary!.diagnosis).isVisible()).toBe(true);
    // The Gregorian date, and the Ethiopian one beside it.
    expect(await page.getByTestId("summary-document").textContent()).toMatch(/\d{1,2} \w{3} \d{4} \(.+ ቀን \d{4} ዓ\.ም\.\)/);
    await expectAccessible(page);
    await page.emulateMedia({ media: "print" });
    expect(await page.getByRole("link", { name: "Back to the consultation" }).isVisible()).toBe(false);
    expect(await printedPages(page)).toBe(1);

    await page.emulateMedia({ media: "screen" });
    await page.goto(`${baseUrl}/patient/consultation/${awaiting.id}/summary?lng=am`);
    await page.getByRole("heading", { level: 1, name: "የምክክር ማጠቃለያ" }).waitFor();
    await page.getByRole("link", { name: "በእንግሊዝኛም ያሳዩ" }).click();
    await page.waitForURL(/\?both=1$/);
    expect(await page.getByTestId("summary-document").count()).toBe(2);
    await expectAccessible(page);
    await page.emulateMedia({ media: "print" });
    // The English copy starts a page of its own: two languages, two pages.
    expect(await printedPages(page)).toBe(2);
  });
});
