import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { clientIdentity } from "~/domain/client-identity";
import { clientAddress, withTrustedClientAddress } from "~/server/client-address.server";
import { withSecurityHeaders } from "~/server/security-headers.server";

/** Where a request seen without Cloudflare in front (tests, local development) comes from. */
const LOCAL_FIRST_HOP = "127.0.0.1";

describe("static files", () => {
  it("carry every security header the Worker sets on its own answers (public/_headers)", () => {
    const file = readFileSync(new URL("../../public/_headers", import.meta.url), "utf8");
    const forEverything = file.split(/\n(?=\S)/).find((block) => block.startsWith("/*\n"))!;
    const inFile = new Map<string, string>();
    for (const [, name, value] of forEverything.matchAll(/^ {2}([^:\n]+): (.*)$/gm)) inFile.set(name!.toLowerCase(), value!);
    const answer = withSecurityHeaders(new Response("ok"), "nonce", { production: true });
    const set = [...answer.headers].filter(([name]) => name !== "content-security-policy" && name !== "content-type");
    expect(set.length).toBeGreaterThan(0);
    for (const [name, value] of set) expect(inFile.get(name)).toBe(value);
  });
});

describe("the client's address", () => {
  const forged = () =>
    new Request("http://localhost:8787/login", { method: "POST", body: "x=1", headers: { "CF-Connecting-IP": "203.0.113.9" } });

  it("is Cloudflare's CF-Connecting-IP behind the edge", () => {
    expect(clientAddress(withTrustedClientAddress(forged(), true))).toBe("203.0.113.9");
  });

  it("is the local first hop otherwise, whatever header the client sends, and the body still arrives", async () => {
    const settled = withTrustedClientAddress(forged(), false);
    expect(clientAddress(settled)).toBe(LOCAL_FIRST_HOP);
    expect(clientAddress(withTrustedClientAddress(new Request("http://localhost:8787/"), false))).toBe(LOCAL_FIRST_HOP);
    expect(await settled.text()).toBe("x=1");
  });
});

describe("one client for rate limits", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["2001:db8:85a3:12:8a2e:370:7334:1", "2001:db8:85a3:12::/64"],
    ["2001:db8:85a3:12:ffff:ffff:ffff:ffff", "2001:db8:85a3:12::/64"],
    ["2001:DB8:85A3:12::1", "2001:db8:85a3:12::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::ffff:198.51.100.7", "198.51.100.7"],
    ["::1", "0:0:0:0::/64"],
    [null, "unknown-client"],
    ["not-an-address", "not-an-address"],
  ])("%s is %s", (address, identity) => {
    expect(clientIdentity(address)).toBe(identity);
  });
});
