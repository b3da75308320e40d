import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_PASSWORD } from "../support/demo-data";
import { baseUrl, endJourneys, signInDirectly, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

describe("the structured intake", () => {
  // (axe needs script, so step 2 is audited by the keyboard journey, which has it.)
  it("works without JavaScript on a 360 px phone: a tap on the body map ticks its area, and the doctor reads the triage line", async () => {
    const patient = await startJourney({ javaScriptEnabled: false });
    await patient.page.setViewportSize({ width: 360, height: 780 });
    await signUpNewPatient(patient.page, "Tigist");
    await patient.page.goto(`${baseUrl}/patient/new-consultation?step=2`);
    // Sent without the required answers: the form says which, and keeps what was typed.
    const complaint = `Ring on my back ${Date.now()}`;
    await patient.page.getByLabel("What is going on with your skin?").fill(complaint);
    await patient.page.getByRole("button", { name: "Submit request" }).click();
    await patient.page.getByText("This field is required.").first().waitFor();
    expect(await patient.page.getByLabel("What is going on with your skin?").inputValue()).toBe(complaint);

    await patient.page.getByLabel("Age (years)").fill("41");
    await patient.page.getByLabel("Male", { exact: true }).check();
    // The drawing's areas are labels of the list's checkboxes: a tap there ticks the same box.
    await patient.page.locator('[data-area="upper_back"]').click();
    expect(await patient.page.getByLabel("Upper back").isChecked()).toBe(true);
    await patient.page.locator('[data-area="right_forearm"]').click();
    await patient.page.locator('[data-area="right_forearm"]').click();
    expect(await patient.page.getByLabel("Right forearm").isChecked()).toBe(false);
    // A man is not asked about pregnancy (CSS alone hides the question).
    expect(await patient.page.getByText("For women: are you pregnant or breastfeeding?").isVisible()).toBe(false);
    await patient.page.getByLabel("How many").fill("2");
    await patient.page.getByLabel("Days, weeks, months or years").selectOption("months");
    await patient.page.getByLabel("Bleeding").check();
    expect(await patient.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await patient.page.getByRole("button", { name: "Submit request" }).click();
    await patient.page.waitForURL(/step=3/);

    const doctor = await startJourney();
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    const item = doctor.page.getByTestId("waiting-request").filter({ hasText: complaint });
    await expect.poll(() => item.getByTestId("triage-line").textContent()).toBe("M, 41 · upper back · 2 months · bleeding");
    await item.getByRole("link").first().click();
    await doctor.page.waitForURL(/\/doctor\/consultation\//);
    await expect.poll(() => doctor.page.getByTestId("triage-line").textContent()).toBe("M, 41 · upper back · 2 months · bleeding");
    await doctor.page.goto(`${doctor.page.url()}?lng=am`);
    await expect.poll(() => doctor.page.getByTestId("triage-line").textContent()).toBe("ወንድ፣ 41 · የላይኛው ጀርባ · 2 ወር · መድማት");
    await expectAccessible(doctor.page);
    expect(patient.problems.join("\n")).toBe("");
    expect(doctor.problems.join("\n")).toBe("");
  });
});
