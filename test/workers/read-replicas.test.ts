// Issue 19, item 1: D1 read replicas through the Sessions API. Admin pages and dashboards may read from a
// replica; a reader who has just changed something carries the bookmark of their change (a signed
// cookie) so those reads wait for it. Locally there is one database, so what is tested is the cookie's
// life: given after a change, never after a read, and a bookmark the server did not sign is ignored.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

import { Visitor } from "./browser-like";
import { ORIGIN, signedIn } from "./fixtures";

const BOOKMARK_COOKIE = /__Host-qoda_d1=([^;]+);[^,]*HttpOnly; Secure; SameSite=Lax/;
const bookmarkCookieOf = (response: Response) => BOOKMARK_COOKIE.exec(response.headers.getSetCookie().join(", "));

describe("the bookmark of a reader's own change", () => {
  it("is given after a change and carried to the dashboard, which reads with it", async () => {
    const patient = new Visitor((await signedIn("patient")).cookie);
    const read = await patient.get("/notifications");
    expect(read.status).toBe(200);
    expect(bookmarkCookieOf(read)).toBeNull();

    const changed = await patient.post("/notifications", { intent: "mark-all-read" });
    expect(changed.status).toBeLessThan(400);
    expect(bookmarkCookieOf(changed)).not.toBeNull();
    expect(patient.hasCookie("__Host-qoda_d1")).toBe(true);

    const dashboard = await patient.get("/patient/dashboard");
    expect(dashboard.status).toBe(200);
    expect(bookmarkCookieOf(dashboard)).toBeNull();
  });

  it("is ignored when the server did not sign it: the admin's page answers as without one", async () => {
    const { cookie } = await signedIn("admin");
    const page = await SELF.fetch(`${ORIGIN}/admin/dashboard`, {
      headers: { Cookie: `${cookie}; __Host-qoda_d1=ffffffff-ffffffff-ffffffff-ffffffffffffffffffffffffffffffff` },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<h1");
  });
});
