// A patient's data rights in the browser (docs/decisions/0037): the download starts from the profile, the
// section reads in Amharic too, and the closing form works without JavaScript on a 360 px phone.
import { readFileSync } from "node:fs";

import { unzipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";

import { baseUrl, documentRequestsLast, downloadedFile, endJourneys, hydrated, path, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

describe("a patient's data", () => {
  it("downloads as a ZIP of their own from the profile; in Amharic, the section reads and closes the account", async () => {
    const { browser, page, problems } = await startJourney();
    const email = await signUpNewPatient(page, "Selam");
    await page.goto(`${baseUrl}/patient/profile`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-link").click()]);
    expect(download.suggestedFilename()).toMatch(/^qoda-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(new Uint8Array(readFileSync(await downloadedFile(download))));
    expect(Object.keys(files).sort()).toEqual(["consultations.json", "payments.json", "profile.json"]);
    expect(JSON.parse(new TextDecoder().decode(files["profile.json"]!))).toMatchObject({ email, firstName: "Selam" });

    await page.goto(`${baseUrl}/patient/profile?lng=am`);
    const section = page.getByTestId("privacy-section");
    await expect.poll(() => section.textContent()).toContain("መረጃዎን ያውርዱ");
    expect(await section.textContent()).toContain("ወዲያውኑ የሚሰረዙ");
    expect(await section.getByRole("button").textContent()).toBe("መለያዎን ይዝጉ");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // With JavaScript, in Amharic, with the Amharic word. The home page is asked for last, as on a slow
    // phone: it still says the account is closed.
    const close = section.getByRole("button", { name: "መለያዎን ይዝጉ" });
    await hydrated(close);
    await documentRequestsLast(browser, "/");
    await section.getByLabel("ለማረጋገጥ ይዘጋ የሚለውን ቃል (ወይም CLOSE) ይጻፉ").fill("ይዘጋ");
    await close.click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.getByRole("status").textContent()).toContain("መለያዎ ተዘግቷል");
    expect(problems).toEqual([]);
  });

  it("closes the account without JavaScript: the word is asked for, then the person is signed out for good", async () => {
    const { page } = await startJourney({ javaScriptEnabled: false });
    await signUpNewPatient(page, "Dawit");
    await page.goto(`${baseUrl}/patient/profile`);
    const form = page.getByTestId("close-account-form");
    expect(await form.textContent()).toContain("Erased at once");
    await form.getByLabel("To confirm, type CLOSE").fill("maybe");
    await form.getByRole("button", { name: "Close my account" }).click();
    expect(await page.getByTestId("close-account-form").textContent()).toContain("Type CLOSE in the box to confirm.");

    await page.getByTestId("close-account-form").getByLabel("To confirm, type CLOSE").fill("CLOSE");
    await page.getByTestId("close-account-form").getByRole("button", { name: "Close my account" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.getByRole("status").textContent()).toContain("Your account is closed");
    await page.goto(`${baseUrl}/patient/profile`);
    expect(path(page)).toBe("/login");
  });
});
