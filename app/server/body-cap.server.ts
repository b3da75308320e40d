// No request may declare a body larger than the largest upload form: it is refused before routing,
// unread, with a 413 in the reader's language. Each form still checks its own, smaller limit.
import { MAX_REQUEST_BODY_BYTES } from "~/domain/constants";
import { getTranslator } from "~/i18n.server";

export async function refuseOversizeBody(request: Request): Promise<Response | null> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (!(declared > MAX_REQUEST_BODY_BYTES)) return null;
  const t = await getTranslator(request);
  return new Response(t("requests.bodyTooLarge"), { status: 413, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
