import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LOCAL_FIRST_HOP, clientAddress, withTrustedClientAddress } from "~/server/client-address.server";
import { SECURITY_HEADERS } from "~/server/security-headers.server";

describe("static files", () => {
  it("carry every security header the Worker sets on its own answers (public/_headers)", () => {
    const file = readFileSync(new URL("../../public/_headers", import.meta.url), "utf8");
    const forEverything = file.split(/\n(?=\S)/).find((block) => block.startsWith("/*\n"))!;
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(forEverything).toContain(`  ${name}: ${value}\n`);
  });
});

describe("the client's address", () => {
  const forged = () => new Request("http://localhost:8787/login", { method: "POST", body: "x=1", headers: { "CF-Connecting-IP": "203.0.113.9" } });

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
