// Cookies a browser sends back are input like any other: a value that was never ours (edited by hand,
// cut short, another site's) is ignored, never an error page.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

import { ORIGIN, signedIn } from "./fixtures";

/** Every cookie the app reads. */
const COOKIES = [
  "__Host-qoda_session",
  "__Host-qoda_toast",
  "__Host-qoda_lng",
  "__Host-qoda_known_device",
  "__Host-qoda_after_google",
  "__Host-qoda_d1",
];
const GARBAGE = ["ffff-not-base64!!", "eyJhIjoxfQ==.forged-signature", "%E0%A4%A", "x".repeat(3000)];

describe("a cookie that was never ours", () => {
  it("is ignored on public pages and signed-in pages alike", async () => {
    const { cookie: session } = await signedIn("patient");
    const answers: string[] = [];
    for (const name of COOKIES)
      for (const value of GARBAGE)
        for (const [path, cookies] of [
          ["/login", `${name}=${value}`],
          ["/patient/dashboard", name === "__Host-qoda_session" ? `${name}=${value}` : `${session}; ${name}=${value}`],
        ] as const) {
          const response = await SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", headers: { Cookie: cookies } });
          await response.arrayBuffer();
          if (response.status >= 500) answers.push(`${path} with ${name}=${value.slice(0, 20)}: ${response.status}`);
        }
    expect(answers).toEqual([]);
  });
});
