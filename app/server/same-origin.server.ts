// Browsers attach cookies to cross-site form posts and WebSocket handshakes; our own pages always send
// an Origin of this site (every current browser sends it on a POST). So a state-changing request that
// names another origin is refused, and so is one that carries a session but no Origin at all: only a
// machine without a session (the payment provider's webhook) posts without one.
import { getTranslator } from "~/i18n.server";
import { SESSION_COOKIE_NAME } from "~/server/auth/session.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** True unless the request carries an Origin header naming another site (server-to-server calls send none). */
export function isSameOriginRequest(request: Request): boolean {
  const origin = request.headers.get("Origin");
  return origin === null || origin === new URL(request.url).origin;
}

function carriesSession(request: Request): boolean {
  return (request.headers.get("Cookie") ?? "").split(";").some((pair) => pair.trim().startsWith(`${SESSION_COOKIE_NAME}=`));
}

/** A 403 in the reader's language for a state-changing request from another site or of unknown origin, else null. */
export async function refuseCrossSiteMutation(request: Request): Promise<Response | null> {
  if (SAFE_METHODS.has(request.method)) return null;
  const unknownOrigin = request.headers.get("Origin") === null && carriesSession(request);
  if (isSameOriginRequest(request) && !unknownOrigin) return null;
  const t = await getTranslator(request);
  return new Response(t("requests.crossSite"), { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
