import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const ORIGIN = "https://qoda.test";

interface Manifest {
  id: string;
  name: string;
  short_name: string;
  lang: string;
  start_url: string;
  display: string;
  theme_color: string;
  icons: Array<{ src: string; sizes: string; purpose: string }>;
  shortcuts: Array<{ name: string; url: string }>;
}

async function manifest(path: string, init?: RequestInit) {
  const response = await SELF.fetch(`${ORIGIN}${path}`, init);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toContain("application/manifest+json");
  return (await response.json()) as Manifest;
}

describe("the web app manifest", () => {
  it("makes Qoda installable: a name, a start page, a theme colour and icons, maskable among them", async () => {
    const english = await manifest("/manifest.webmanifest");
    expect(english).toMatchObject({
      id: "/",
      name: "Qoda: online dermatology consultations",
      short_name: "Qoda",
      lang: "en",
      start_url: "/",
      display: "standalone",
      theme_color: "#8a3b12",
    });
    expect(english.icons.map((icon) => `${icon.src} ${icon.sizes} ${icon.purpose}`)).toEqual(
      expect.arrayContaining([
        "/icons/qoda-192.png 192x192 any",
        "/icons/qoda-512.png 512x512 any",
        "/icons/qoda-maskable-512.png 512x512 maskable",
      ]),
    );
    expect(english.shortcuts).toEqual([
      expect.objectContaining({ name: "New consultation", url: "/patient/new-consultation" }),
      expect.objectContaining({ name: "My consultations", url: "/patient/consultations" }),
    ]);
  });

  it("speaks the reader's language: the one they chose (their cookie), or else the phone's", async () => {
    const chosen = (await SELF.fetch(`${ORIGIN}/?lng=am`)).headers.get("Set-Cookie")!.split(";")[0]!;
    const amharic = await manifest("/manifest.webmanifest", { headers: { Cookie: chosen, "Accept-Language": "en-US" } });
    expect(amharic).toMatchObject({ lang: "am", short_name: "ቆዳ", id: "/" });
    expect(amharic.shortcuts.map((shortcut) => shortcut.name)).toEqual(["አዲስ ምክክር", "የእኔ ምክክሮች"]);
    const byPhone = await manifest("/manifest.webmanifest", { headers: { "Accept-Language": "am-ET,am;q=0.9" } });
    expect(byPhone.lang).toBe("am");
    expect((await manifest("/manifest.webmanifest")).lang).toBe("en");
  });

  it("is linked from every page, to be fetched with the reader's cookie", async () => {
    for (const path of ["/", "/terms?lng=am", "/login"]) {
      const html = await (await SELF.fetch(`${ORIGIN}${path}`)).text();
      expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" crossorigin="use-credentials"/>');
    }
  });
});
