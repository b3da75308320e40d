import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

import { loadConfig } from "~/server/env.server";
import { toastHeaders } from "~/server/toast.server";

import { ORIGIN } from "./fixtures";

async function toastCookie() {
  const headers = await toastHeaders(loadConfig(env), {
    kind: "info",
    title: "pages.accountIssue.title",
    description: "pages.notFound.body",
  });
  return headers.get("Set-Cookie")!.split(";")[0]!;
}

describe("toasts", () => {
  it("are shown once, in the page's language, from the flash cookie", async () => {
    const cookie = await toastCookie();
    const first = await SELF.fetch(`${ORIGIN}/terms?lng=am`, { headers: { Cookie: cookie } });
    const html = await first.text();
    expect(html).toContain('role="status"');
    expect(html).toContain("መለያው ንቁ አይደለም");
    expect(html).toContain("የፈለጉትን ገጽ ማግኘት አልቻልንም።");
    const cleared = first.headers.getSetCookie().find((value) => value.startsWith("__Host-qoda_toast="));
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
  });

  it("ignore a tampered cookie", async () => {
    const cookie = await toastCookie();
    const [name, value] = cookie.split("=");
    const tampered = `${name}=${value!.slice(0, -3)}abc`;
    const response = await SELF.fetch(`${ORIGIN}/terms`, { headers: { Cookie: tampered } });
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain("Account Inactive");
  });
});
