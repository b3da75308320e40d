// A doctor puts their picture on the card patients read before paying: from the profile, a large photo
// is made small in the browser before it is sent; without JavaScript the server refuses one too large,
// saying why on the page.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { expectAccessible } from "../support/accessibility";
import { DEMO_PASSWORD } from "../support/demo-data";
import { endJourneys, signInDirectly, startJourney } from "./journey";

afterEach(endJourneys);

/** A PNG of `width` × `height` drawn by the page's own canvas (so it is a real, decodable picture). */
async function drawnPng(page: Page, width: number, height: number) {
  const dataUrl = await page.evaluate(
    ({ width, height }) => {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext("2d")!;
      context.fillStyle = "#2a6f78";
      context.fillRect(0, 0, width, height);
      context.fillStyle = "#d6ece8";
      context.fillRect(width / 4, height / 4, width / 2, height / 2);
      return canvas.toDataURL("image/png");
    },
    { width, height },
  );
  return { name: "portrait.png", mimeType: "image/png", buffer: Buffer.from(dataUrl.split(",")[1]!, "base64") };
}

async function openCardPage(page: Page) {
  await signInDirectly(page, "dr.abebe@qoda.test", DEMO_PASSWORD);
  await page.waitForURL(/\/doctor\/dashboard$/);
  await page.goto(new URL("/doctor/profile", page.url()).toString(), { waitUntil: "networkidle" });
  await page.getByRole("link", { name: "Change your picture and languages" }).click();
  await page.waitForURL(/\/doctor\/profile\/card$/);
  await page.getByRole("heading", { name: "What patients see before paying" }).waitFor();
}

describe("the doctor's picture", () => {
  it("is made 512 px on its long side in the browser, then shown on the doctor's card", async () => {
    const doctor = await startJourney();
    await openCardPage(doctor.page);
    await doctor.page.getByLabel("Choose a picture").setInputFiles(await drawnPng(doctor.page, 1600, 1200));
    // The chosen file is replaced by its redrawn JPEG before anything is sent.
    const chosen = doctor.page.getByLabel("Choose a picture");
    await expect.poll(() => chosen.evaluate((input: HTMLInputElement) => input.files?.[0]?.type)).toBe("image/jpeg");
    await doctor.page.getByRole("button", { name: "Upload picture" }).click();
    await doctor.page.getByText("Your picture is saved.").waitFor();
    const picture = doctor.page.getByRole("img", { name: "Photo of Dr. Abebe Kebede" });
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => `${image.naturalWidth}×${image.naturalHeight}`)).toBe("512×384");
    // Redrawn as a JPEG (which also drops any EXIF data).
    const stored = await doctor.page.request.get(new URL("/doctor/profile/picture", doctor.page.url()).toString());
    expect(stored.headers()["content-type"]).toBe("image/jpeg");
    await expectAccessible(doctor.page);
    expect(doctor.problems).toEqual([]);
  });

  it("without JavaScript, is refused when too large, with the reason on the page", async () => {
    const doctor = await startJourney({ javaScriptEnabled: false });
    await openCardPage(doctor.page);
    const tooLarge = Buffer.alloc(2 * 1024 * 1024 + 1);
    tooLarge.set([0xff, 0xd8, 0xff, 0xe0]);
    await doctor.page.getByLabel("Choose a picture").setInputFiles({ name: "poster.jpg", mimeType: "image/jpeg", buffer: tooLarge });
    await doctor.page.getByRole("button", { name: "Upload picture" }).click();
    await doctor.page.getByRole("alert").filter({ hasText: "This picture is larger than 2 MB." }).waitFor();
    // (The accessibility audit needs the page's own script; the size bench audits this page with it.)
  });
});
