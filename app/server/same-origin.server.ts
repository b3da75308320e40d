// Browsers attach cookies to cross-site form posts and WebSocket handshakes; our own pages always send
// an Origin of this site. A request that names another origin is refused before it reaches any handler.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** True unless the request carries an Origin header naming another site (server-to-server calls send none). */
export function isSameOriginRequest(request: Request): boolean {
  const origin = request.headers.get("Origin");
  return origin === null || origin === new URL(request.url).origin;
}

/** A 403 for a state-changing request from another site, else null. */
export function refuseCrossSiteMutation(request: Request): Response | null {
  if (SAFE_METHODS.has(request.method) || isSameOriginRequest(request)) return null;
  return new Response("Cross-site requests are not allowed.", {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
