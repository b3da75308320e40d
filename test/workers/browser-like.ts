// A tiny stand-in for a browser in Workers-runtime tests: keeps cookies, posts forms the way a page
// does (same Origin and Host), and follows nothing unless asked.
import { SELF } from "cloudflare:test";

import { ORIGIN } from "./fixtures";

export class Visitor {
  private cookies = new Map<string, string>();
  /** Each visitor comes from its own address, as Cloudflare reports it, so rate limits see them apart. */
  readonly address = `198.51.100.${Math.floor(Math.random() * 250) + 1}-${crypto.randomUUID().slice(0, 4)}`;

  constructor(initialCookie?: string) {
    if (initialCookie) this.remember([initialCookie]);
  }

  private remember(setCookies: string[]) {
    for (const setCookie of setCookies) {
      const [pair, ...attributes] = setCookie.split(";");
      const [name, ...value] = pair!.split("=");
      const expired = attributes.some(
        (attribute) => /max-age=0\b/i.test(attribute.trim()) || /expires=thu, 01 jan 1970/i.test(attribute.trim()),
      );
      if (expired || value.join("=") === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join("="));
    }
  }

  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  hasCookie(name: string) {
    return this.cookies.has(name);
  }

  async fetch(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set("Host", new URL(ORIGIN).host);
    if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", this.address);
    if (this.cookies.size) headers.set("Cookie", this.cookieHeader());
    const response = await SELF.fetch(path.startsWith("http") ? path : `${ORIGIN}${path}`, { redirect: "manual", ...init, headers });
    this.remember(response.headers.getSetCookie());
    // Read to its end, as a browser reads a page: a streamed page left unread would hold its connection
    // open, and enough of those stall the Worker's next requests.
    const body = [204, 205, 304].includes(response.status) ? null : await response.arrayBuffer();
    const read = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    return Object.defineProperty(read, "url", { value: response.url });
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.fetch(path, { headers });
  }

  post(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(name, item);
    return this.fetch(path, {
      method: "POST",
      body,
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    });
  }

  postMultipart(path: string, form: FormData, headers: Record<string, string> = {}) {
    return this.fetch(path, { method: "POST", body: form, headers: { Origin: ORIGIN, ...headers } });
  }

  /** Follows redirects from `response` until a page answers; returns it with its HTML. */
  async follow(response: Response) {
    let current = response;
    for (let hops = 0; hops < 10 && current.status >= 300 && current.status < 400; hops++) {
      await current.arrayBuffer();
      current = await this.get(current.headers.get("Location")!);
    }
    return { response: current, html: await current.text(), url: current.url };
  }
}
