import { SELF } from "cloudflare:test";
import { vi } from "vitest";

import { Visitor } from "./browser-like";
import { ORIGIN } from "./fixtures";

/**
 * Walks the Google flow through the stand-in as `sub`, asking to come back to `redirect`. The Worker
 * calls Google's token and userinfo endpoints over fetch; here they are this same site, so those
 * calls are routed to the Worker. Callers restore the fetch spy (`vi.restoreAllMocks()`).
 */
export async function signInWithGoogle(sub: string, redirect = "/auth-callback") {
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return url.startsWith(ORIGIN) ? SELF.fetch(new Request(input, init)) : realFetch(input, init);
  });
  const visitor = new Visitor();
  const start = await visitor.post("/auth/google", { redirect });
  const authorize = new URL(start.headers.get("Location")!);
  const consentPage = await visitor.get(`${authorize.pathname}${authorize.search}`);
  const chosen = await visitor.post("/dev/google/authorize", { ...Object.fromEntries(authorize.searchParams), sub });
  const callback = new URL(chosen.headers.get("Location")!);
  const answer = await visitor.get(`${callback.pathname}${callback.search}`);
  return { visitor, authorize, consentPage, callback, answer };
}
