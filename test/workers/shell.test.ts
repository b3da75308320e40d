import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const ORIGIN = "https://qoda.test";

async function page(path: string, init?: RequestInit) {
  const response = await SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });
  return { response, html: await response.text() };
}

describe("the landing page", () => {
  it("is served in English by default", async () => {
    const { response, html } = await page("/");
    expect(response.status).toBe(200);
    expect(html).toContain('<html lang="en"');
    expect(html).toContain("A dermatologist&#x27;s advice, right on your phone");
    expect(html).toContain('href="/register?type=patient"');
    expect(html).toContain('href="/register/doctor"');
    expect(html).toContain("under 10 minutes");
    expect(html).toContain("Not for emergencies");
  });

  it("is served in Amharic with ?lng=am, and the choice is remembered in a cookie", async () => {
    const { response, html } = await page("/?lng=am");
    expect(html).toContain('<html lang="am"');
    expect(html).toContain("የቆዳ ሐኪም ምክር፣ በስልክዎ ላይ");
    expect(html).toContain("ለድንገተኛ ሁኔታ አይደለም");
    // The footer's year is the Ethiopian one too.
    expect(html).toMatch(/© \d{4} ዓ\.ም\. «ቆዳ»/);
    const cookie = response.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/^__Host-qoda_lng=/);
    expect(cookie).toContain("Secure");

    const again = await page("/terms", { headers: { Cookie: cookie.split(";")[0]! } });
    expect(again.html).toContain('<html lang="am"');
    expect(again.html).toContain("የአገልግሎት ውሎች");
  });

  it("follows the browser's language when nothing was chosen", async () => {
    const { html } = await page("/", { headers: { "Accept-Language": "am-ET,am;q=0.9" } });
    expect(html).toContain('<html lang="am"');
  });

  it("ignores a language it does not have", async () => {
    const { response, html } = await page("/?lng=xx");
    expect(html).toContain('<html lang="en"');
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });

  it("links the footer pages and the language switcher as plain links", async () => {
    const { html } = await page("/privacy");
    expect(html).toContain('href="/terms"');
    expect(html).toContain('href="/privacy"');
    expect(html).toContain('href="/register/doctor"');
    expect(html).toContain('href="/privacy?lng=am"');
  });
});

describe("the legal pages", () => {
  it("state every fact of the terms", async () => {
    const { response, html } = await page("/terms");
    expect(response.status).toBe(200);
    for (const fact of [
      "medical brokerage",
      "not a healthcare provider",
      "non-emergency",
      "holds your payment in escrow",
      "72 hours after it ends if you have not opened a dispute",
      "open a dispute from the consultation page within 72 hours",
      "Qoda keeps 20% of the fee",
      "refunded to you automatically through Chapa",
      "refund it in full or refund part of it",
      "once it is at least 100 ETB",
      "at least 1 year",
      "18 years or older",
      "parent or legal guardian",
      "support@qoda.et",
      "150 ETB",
    ]) {
      expect(html, fact).toContain(fact);
    }
  });

  it("state the privacy facts, in Amharic too", async () => {
    const english = await page("/privacy");
    for (const fact of [
      "privacy@qoda.et",
      "at least 1 year",
      "never made public",
      "every such access is logged",
      "account name and number with each payout",
      "download a copy of everything we hold about you",
      "close your account",
      "it is not possible while a consultation is open or its payment is not settled",
      "a scheduled job deletes them for good",
      "kept without your name for as long as accounting requires",
    ]) {
      expect(english.html, fact).toContain(fact);
    }
    const amharic = await page("/privacy?lng=am");
    expect(amharic.html).toContain("የግላዊነት ፖሊሲ");
    expect(amharic.html).toContain("ቢያንስ ለ1 ዓመት");
    expect(amharic.html).toContain("መለያዎን መዝጋት ይችላሉ");
    // The date the texts changed, 26 November 2026, on each reader's calendar.
    expect(english.html).toContain("Last updated: 26 November 2026");
    expect(amharic.html).toContain("ለመጨረሻ ጊዜ የተሻሻለው፦ ኅዳር 17 ቀን 2019 ዓ.ም.");
  });
});

describe("status pages", () => {
  it("answers an unknown path with a 404 page that links home, in the visitor's language", async () => {
    const { response, html } = await page("/no/such/page");
    expect(response.status).toBe(404);
    expect(html).toContain("Page not found");
    expect(html).toContain('href="/"');
    const amharic = await page("/no/such/page?lng=am");
    expect(amharic.response.status).toBe(404);
    expect(amharic.html).toContain("ገጹ አልተገኘም");
  });

  it("serves /access-denied with 403 and /account-issue titled Account Inactive", async () => {
    const denied = await page("/access-denied");
    expect(denied.response.status).toBe(403);
    expect(denied.html).toContain("Access denied");
    const inactive = await page("/account-issue");
    expect(inactive.response.status).toBe(200);
    expect(inactive.html).toContain("<title>Account Inactive · Qoda</title>");
  });

  it("gives every page a title", async () => {
    for (const path of ["/", "/terms", "/privacy", "/access-denied", "/account-issue", "/nowhere"]) {
      const { html } = await page(path);
      expect(html, path).toMatch(/<title>[^<]+ · Qoda<\/title>/);
    }
  });
});
