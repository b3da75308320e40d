import { SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";

import { MAX_REQUEST_BODY_BYTES } from "~/domain/constants";

import { ORIGIN, signedIn } from "./fixtures";

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
    // Sockets and fetches go to this site only: no ws:/wss: to any host.
    expect(
      csp
        .split(";")
        .find((part) => part.trim().startsWith("connect-src"))
        ?.trim(),
    ).toBe("connect-src 'self'");
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

describe("cross-site requests", () => {
  it("refuse a form post from another site before any handler runs", async () => {
    const response = await SELF.fetch(`${ORIGIN}/terms`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "anything=1",
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("did not come from a Qoda page");
  });

  it("refuse a state-changing request that carries a session but no Origin, in the reader's language, changing nothing", async () => {
    const admin = await signedIn("admin");
    const host = { Host: new URL(ORIGIN).host, Cookie: admin.cookie };
    const signOut = await SELF.fetch(`${ORIGIN}/logout`, { method: "POST", headers: host, body: "" });
    expect(signOut.status).toBe(403);
    expect(await signOut.text()).toContain("did not come from a Qoda page");
    const inAmharic = await SELF.fetch(`${ORIGIN}/logout?lng=am`, { method: "POST", headers: host, body: "" });
    expect(await inAmharic.text()).toContain("ከ«ቆዳ» ገጽ ስላልመጣ");
    // Still signed in: the sign-out never ran.
    const console = await SELF.fetch(`${ORIGIN}/admin/dashboard`, { headers: host, redirect: "manual" });
    await console.arrayBuffer();
    expect(console.status).toBe(200);
  });

  it("let our own pages and server-to-server calls through", async () => {
    // Browsers always send Host; Remix compares it with Origin for actions.
    const host = { Host: new URL(ORIGIN).host };
    for (const headers of [{ ...host, Origin: ORIGIN }, host] as Record<string, string>[]) {
      const response = await SELF.fetch(`${ORIGIN}/terms`, { method: "POST", headers, body: "" });
      await response.arrayBuffer();
      // /terms has no action, so Remix answers 405: the request reached the app.
      expect(response.status).toBe(405);
    }
  });
});

describe("request bodies", () => {
  it("larger than the largest upload form are refused before routing, unread, in the reader's language", async () => {
    const patient = await signedIn("patient");
    for (const [path, words] of [
      ["/patient/new-consultation/photos", "too large"],
      ["/register/doctor?lng=am", "በጣም ትልቅ"],
    ] as const) {
      const response = await SELF.fetch(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { Origin: ORIGIN, Cookie: patient.cookie, "Content-Type": "application/octet-stream" },
        body: new Uint8Array(MAX_REQUEST_BODY_BYTES + 1),
      });
      expect(response.status).toBe(413);
      expect(await response.text()).toContain(words);
    }
  });
});

describe("data requests", () => {
  it("that a loader answers with a 404 are not logged as server errors", async () => {
    const patient = await signedIn("patient");
    const logged = vi.spyOn(console, "error");
    const response = await SELF.fetch(
      `${ORIGIN}/patient/consultation/${crypto.randomUUID()}?_data=${encodeURIComponent("routes/patient.consultation.$id")}`,
      { headers: { Cookie: patient.cookie } },
    );
    await response.arrayBuffer();
    expect(response.status).toBe(404);
    expect(logged.mock.calls.filter((call) => String(call[0]).includes("unhandled_error"))).toEqual([]);
    logged.mockRestore();
  });
});
