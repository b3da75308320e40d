import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "./fixtures";

function nonceOf(csp: string) {
  return /'nonce-([^']+)'/.exec(csp)?.[1];
}

describe("security headers", () => {
  it.each(["/", "/terms", "/no-such-page", "/health", "/access-denied"])("are on %s", async (path) => {
    const response = await SELF.fetch(`${ORIGIN}${path}`);
    await response.arrayBuffer();
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(csp).not.toContain("unsafe-inline' 'nonce"); // scripts never inline without a nonce
    expect(csp.split(";").find((part) => part.trim().startsWith("script-src"))).not.toContain("unsafe-inline");
    expect(response.headers.get("Content-Security-Policy-Report-Only")).toBeNull();
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("Permissions-Policy")).toContain("geolocation=()");
    expect(response.headers.get("Strict-Transport-Security")).toMatch(/^max-age=\d{8,}/);
  });

  it("give each response its own nonce, and every script on the page carries it", async () => {
    const first = await SELF.fetch(`${ORIGIN}/`);
    const second = await SELF.fetch(`${ORIGIN}/`);
    const html = await first.text();
    await second.arrayBuffer();
    const nonce = nonceOf(first.headers.get("Content-Security-Policy") ?? "");
    expect(nonce).toBeTruthy();
    expect(nonce).not.toBe(nonceOf(second.headers.get("Content-Security-Policy") ?? ""));
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("keep pages out of shared caches", async () => {
    const response = await SELF.fetch(`${ORIGIN}/`);
    await response.arrayBuffer();
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  });
});
