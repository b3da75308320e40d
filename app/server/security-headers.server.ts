// Security headers for every response the Worker makes (static assets get theirs from public/_headers).

export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

function contentSecurityPolicy(nonce: string, { production }: { production: boolean }): string {
  return [
    "default-src 'self'",
    // Only scripts we served with this response's nonce (and what they load) run.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // 'self' covers this site's own ws:/wss: (CSP Level 3); no socket to any other host.
    "connect-src 'self'",
    // The offline service worker (/sw.js): 'strict-dynamic' above would not let a page register it.
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Pay posts to our action, which redirects to Chapa's hosted checkout; "Link Telegram" redirects to the
    // bot's deep link on t.me: the only other places a form may lead.
    "form-action 'self' https://checkout.chapa.co https://t.me",
    "frame-ancestors 'none'",
    ...(production ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Set on every response, and on static files through public/_headers (a test keeps them in step). */
const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(self), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** Returns `response` with the security headers set; WebSocket upgrades pass through untouched. */
export function withSecurityHeaders(response: Response, nonce: string, options: { production: boolean }): Response {
  if (response.status === 101 || response.webSocket) return response;
  const secured = new Response(response.body, response);
  secured.headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, options));
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) secured.headers.set(name, value);
  return secured;
}
