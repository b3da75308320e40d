// The methods Qoda answers: pages and files are read with GET (and HEAD), forms are posted with POST.
// Remix would run a route's action for any other method too (a PUT of a chat form sent the message),
// so anything else is refused here, in the reader's language, before a route sees it.
import { getTranslator } from "~/i18n.server";

const ANSWERED = new Set(["GET", "HEAD", "POST", "OPTIONS"]);

function methodNotAllowed(message: string, allow: string) {
  return new Response(message, {
    status: 405,
    headers: { Allow: allow, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** A 405 for a method no page or form of Qoda uses, else null. */
export async function refuseUnusedMethod(request: Request): Promise<Response | null> {
  if (ANSWERED.has(request.method)) return null;
  const t = await getTranslator(request);
  return methodNotAllowed(t("badInput.methodNotAllowed"), "GET, HEAD, POST");
}

/** The loader of a route that only takes posts (an upload, a token exchange): a GET is told so. */
export async function postOnly({ request }: { request: Request }) {
  const t = await getTranslator(request);
  return methodNotAllowed(t("badInput.postOnly"), "POST");
}
