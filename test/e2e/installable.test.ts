import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { chromium, type Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";

import { CHROMIUM_PATH, LAUNCH_ARGS } from "../support/chromium";
import { baseUrl, endJourneys, startJourney } from "./journey";

afterEach(endJourneys);

interface WebManifest {
  name: string;
  short_name: string;
  lang: string;
  icons: Array<{ src: string; sizes: string; purpose: string }>;
  shortcuts: Array<{ name: string; url: string }>;
}

/** The manifest the page links, fetched from inside the page as the browser would. */
const linkedManifest = async (page: Page) =>
  (await page.evaluate(async () =>
    (await fetch(document.querySelector<HTMLLinkElement>('link[rel="manifest"]')!.href)).json(),
  )) as WebManifest;

/** What Chromium itself makes of the page's manifest, through the DevTools protocol. */
async function manifestAsChromiumSeesIt(page: Page) {
  const session = await page.context().newCDPSession(page);
  const { url, errors, data } = (await session.send("Page.getAppManifest")) as {
    url: string;
    errors: Array<{ message: string; critical: number }>;
    /** The manifest's text as Chromium fetched it. */
    data?: string;
  };
  const { installabilityErrors } = (await session.send("Page.getInstallabilityErrors")) as {
    installabilityErrors: Array<{ errorId: string }>;
  };
  await session.detach();
  return {
    url,
    errors,
    installabilityErrors: installabilityErrors.map((error) => error.errorId),
    manifest: JSON.parse(data ?? "null") as WebManifest | null,
  };
}

describe("installing Qoda", () => {
  it("finds a manifest Chromium accepts, in the reader's language, with icons that load (maskable too) and two shortcuts", async () => {
    // Chromium installs nothing from an incognito window, which every journey's context is: this check
    // runs in a profile of its own, as a phone's browser would.
    const profile = mkdtempSync(join(tmpdir(), "qoda-install-"));
    const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS });
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(baseUrl);
      const chromiumView = await manifestAsChromiumSeesIt(page);
      expect(chromiumView.url).toBe(`${baseUrl}/manifest.webmanifest`);
      expect(chromiumView.errors).toEqual([]);
      // Whether a service worker is needed is another part of issue 18; nothing else may stand in the way.
      expect(chromiumView.installabilityErrors.filter((error) => !/service-worker|offline/.test(error))).toEqual([]);
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }

    const { page, problems } = await startJourney();
    await page.goto(baseUrl);
    // The page's own link, fetched as the browser would, and read field by field.
    const manifest = await linkedManifest(page);
    expect(manifest).toMatchObject({
      name: "Qoda: online dermatology consultations",
      short_name: "Qoda",
      theme_color: "#8a3b12",
      display: "standalone",
    });
    expect(manifest.shortcuts.map((shortcut) => `${shortcut.name} → ${shortcut.url}`)).toEqual([
      "New consultation → /patient/new-consultation",
      "My consultations → /patient/consultations",
    ]);
    const icons = await page.evaluate(
      async (list: Array<{ src: string; sizes: string; purpose: string }>) =>
        Promise.all(
          list.map(async (icon) => {
            const image = new Image();
            image.src = icon.src;
            await image.decode();
            return `${icon.purpose} ${icon.sizes} ${image.naturalWidth}x${image.naturalHeight}`;
          }),
        ),
      manifest.icons,
    );
    expect(icons).toEqual(expect.arrayContaining(["any 192x192 192x192", "any 512x512 512x512", "maskable 512x512 512x512"]));
    expect(problems).toEqual([]);
  });

  it("names the app and its shortcuts in Amharic for an Amharic reader", async () => {
    const { page } = await startJourney();
    await page.goto(`${baseUrl}/?lng=am`);
    const chromiumView = await manifestAsChromiumSeesIt(page);
    expect(chromiumView.url).toBe(`${baseUrl}/manifest.webmanifest`);
    expect(chromiumView.errors).toEqual([]);
    expect(chromiumView.manifest?.short_name).toBe("ቆዳ");
    const manifest = await linkedManifest(page);
    expect(manifest.lang).toBe("am");
    expect(manifest.shortcuts.map((shortcut) => shortcut.name)).toEqual(["አዲስ ምክክር", "የእኔ ምክክሮች"]);
  });
});
