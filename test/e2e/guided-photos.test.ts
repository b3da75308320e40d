import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_PASSWORD } from "../support/demo-data";
import { baseUrl, endJourneys, fillIntake, signInDirectly, signUpNewPatient, startJourney } from "./journey";

afterEach(endJourneys);

/** A black PNG of `width` × `height`, drawn by the browser itself: a photo taken in the dark. */
async function blackPng(page: Page, width: number, height: number) {
  const dataUrl = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement("canvas");
      canvas.width = w!;
      canvas.height = h!;
      const context = canvas.getContext("2d")!;
      context.fillStyle = "#000";
      context.fillRect(0, 0, w!, h!);
      return canvas.toDataURL("image/png");
    },
    [width, height],
  );
  return Buffer.from(dataUrl.split(",")[1]!, "base64");
}

describe("guided photos", () => {
  it("guides, warns of a dark photo before upload without blocking it, and keeps what each photo shows for the doctor", async () => {
    const { page, problems } = await startJourney();
    await signUpNewPatient(page, "Selam");
    await page.goto(`${baseUrl}/patient/new-consultation`, { waitUntil: "networkidle" });
    await page.getByTestId("photo-input").waitFor({ state: "attached" });

    // The guide's four drawings are static files, each loaded and described.
    const drawings = page.getByTestId("photo-guide").locator("img");
    expect(await drawings.count()).toBe(4);
    for (const drawing of await drawings.all()) {
      await expect.poll(() => drawing.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
      expect(await drawing.getAttribute("alt")).toMatch(/^Drawing: /);
    }

    // A photo taken in the dark: a warning with a choice, and nothing sent until the patient chooses.
    await page
      .getByTestId("photo-input")
      .setInputFiles({ name: "night.png", mimeType: "image/png", buffer: await blackPng(page, 200, 150) });
    const card = page.getByTestId("photo-upload");
    await expect.poll(() => card.getAttribute("data-status")).toBe("review");
    const warning = card.getByTestId("photo-quality-warning");
    expect(await warning.getAttribute("role")).toBe("alert");
    expect(await warning.textContent()).toContain("This photo looks dark.");
    expect(await card.getByRole("button", { name: "Retake" }).isVisible()).toBe(true);
    expect(await page.getByTestId("sidebar-photos").textContent()).toContain("0 photos");
    await expectAccessible(page);

    await card.getByRole("button", { name: "Use it anyway" }).click();
    await expect.poll(() => card.getAttribute("data-status")).toBe("done");
    await page.waitForURL(/step=1&draft=/);
    expect(await page.getByTestId("sidebar-photos").textContent()).toContain("1 photo");

    // What the photo shows, saved as it is chosen.
    await card.getByLabel("Kind of photo").selectOption({ label: "Close-up" });
    await expect.poll(() => card.getByTestId("photo-description-status").textContent()).toBe("Saved");
    await card.getByLabel("Body area").selectOption({ label: "Left forearm" });
    await expect.poll(() => card.getByTestId("photo-description-status").textContent()).toBe("Saved");

    // Read again from the server.
    await page.reload({ waitUntil: "networkidle" });
    const stored = page.getByTestId("stored-photo");
    expect(await stored.getByLabel("Kind of photo").inputValue()).toBe("close_up");
    expect(await stored.getByLabel("Body area").inputValue()).toBe("left_forearm");

    await page.getByTestId("wizard-next").click();
    await page.waitForURL(/step=2/);
    await page.getByLabel("What is going on with your skin?").fill("A dark patch on my left forearm");
    await fillIntake(page);
    await page.getByRole("button", { name: "Submit request" }).click();
    await page.waitForURL(/step=3/);
    const consultationId = new URL(page.url()).searchParams.get("id");
    expect(problems).toEqual([]);

    // The doctor deciding on the request reads what the photo shows.
    const doctor = await startJourney();
    await signInDirectly(doctor.page, "dr.abebe@qoda.test", DEMO_PASSWORD);
    await doctor.page.waitForURL(/\/doctor\/dashboard$/);
    await doctor.page.goto(`${baseUrl}/doctor/consultation/${consultationId}`, { waitUntil: "networkidle" });
    expect(await doctor.page.getByTestId("photo-caption").allTextContents()).toEqual(["Close-up · Left forearm"]);
    expect(doctor.problems).toEqual([]);
  });
});
