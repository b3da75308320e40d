// Who the client is, for per-client rate limits and the audit log. Behind Cloudflare, the edge sets
// CF-Connecting-IP itself, so a client cannot choose it. Locally, wrangler dev passes whatever header
// a client sends; the Worker entry therefore replaces it with the first hop, which is always this
// machine (wrangler dev listens on the loopback only). Code below the entry reads only the header.

const CLIENT_ADDRESS_HEADER = "CF-Connecting-IP";
/** The first hop of every local request: wrangler dev is bound to 127.0.0.1 (test/support/local-stack.ts). */
const LOCAL_FIRST_HOP = "127.0.0.1";

/** `request` with a client address nobody could have forged: Cloudflare's, or the local first hop. */
export function withTrustedClientAddress(request: Request, trustHeader: boolean): Request {
  if (trustHeader) return request;
  const headers = new Headers(request.headers);
  headers.set(CLIENT_ADDRESS_HEADER, LOCAL_FIRST_HOP);
  return new Request(request, { headers });
}

/** The client's address as the Worker entry settled it (see withTrustedClientAddress). */
export function clientAddress(request: Request): string | null {
  return request.headers.get(CLIENT_ADDRESS_HEADER);
}
