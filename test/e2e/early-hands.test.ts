// What a patient does before the page's scripts have run, as on a slow phone where that takes seconds:
// it is kept when the page hydrates, never silently dropped or cleared.
import { afterEach, describe, expect, it } from "vitest";

import { baseUrl, endJourneys, holdScripts, hydrated, photoOnDisk, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

describe("touched before the page hydrates", () => {
  it("a photo chosen on step 1 before the scripts ran is uploaded once they run, with what she said it shows", async () => {
    const { page, problems } = await startJourney();
    await signUpNewPatient(page, "Hanna");
    const letGo = await holdScripts(page);
    await page.goto(`${baseUrl}/patient/new-consultation`, { waitUntil: "domcontentloaded" });
    // The server's form, the one a phone shows first: the patient picks a photo at once.
    await page.getByLabel("Choose photos").setInputFiles(photoOnDisk());
    await page.getByLabel("Kind of photo").selectOption("close_up");
    await letGo();
    await hydrated(page.getByTestId("wizard-next"));
    const upload = page.getByTestId("photo-upload");
    await expect.poll(() => upload.getAttribute("data-status")).toBe("done");
    expect(await upload.count()).toBe(1);
    // What she said it shows went with it: the uploaded photo's own form reads it back.
    expect(await upload.getByLabel("Kind of photo").inputValue()).toBe("close_up");
    await page.getByTestId("wizard-next").click();
    await page.waitForURL(/step=2&draft=/);
    expect(problems.join("\n")).toBe("");
  });

  it("the sex, body areas and every answer given on step 2 before the scripts ran are sent as given", async () => {
    const { page, problems } = await startJourney();
    await signUpNewPatient(page, "Meron");
    const letGo = await holdScripts(page);
    await page.goto(`${baseUrl}/patient/new-consultation?step=2`, { waitUntil: "domcontentloaded" });
    await page.getByLabel("What is going on with your skin?").fill("An itchy ring on my arm");
    await page.getByLabel("Age (years)").fill("34");
    await page.getByLabel("Female", { exact: true }).check();
    await page.getByLabel("Left forearm").check();
    await page.getByLabel("How many").fill("3");
    await page.getByLabel("Days, weeks, months or years").selectOption("weeks");
    await page.getByLabel("Bleeding").check();
    await letGo();
    const submit = page.getByRole("button", { name: "Submit request" });
    await hydrated(submit);
    expect(await page.getByLabel("Female", { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel("Left forearm").isChecked()).toBe(true);
    expect(await page.getByLabel("Bleeding").isChecked()).toBe(true);
    expect(await page.getByLabel("Days, weeks, months or years").inputValue()).toBe("weeks");
    await submit.click();
    await page.waitForURL(/step=3/);
    expect(problems.join("\n")).toBe("");
  });
});
