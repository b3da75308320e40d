import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { createInstance } from "i18next";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";

import { i18nConfig } from "~/i18n";
import { detectLanguage, resources } from "~/i18n.server";
import { NonceProvider } from "~/nonce";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A fresh i18next per request, in the language the root loader also detects.
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({ ...i18nConfig, lng: await detectLanguage(request), resources });

  const nonce = loadContext.cspNonce;
  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <I18nextProvider i18n={i18n}>
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>
    </I18nextProvider>,
    {
      nonce,
      signal: request.signal,
      onError(error: unknown) {
        if (!request.signal.aborted) console.error(error);
        status = 500;
      },
    },
  );
  if (isbot(request.headers.get("user-agent") ?? "")) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Pages can carry health data and who is signed in: never stored by browsers or proxies.
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");
  return new Response(body, { headers: responseHeaders, status });
}

/** Remix's note when something asks for `?_data=` (old clients, scanners): the request is answered as usual. */
const isLegacyDataRequestWarning = (error: unknown) =>
  error instanceof Error && error.message.startsWith("Warning: Single fetch-enabled apps should not be making ?_data requests");

export function handleError(error: unknown, { request }: { request: Request }) {
  // A client's mistake (a POST to a page without a form, a path that does not exist, a `?_data=`
  // request) answers 4xx or as usual and is not a server error: nothing to log.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500) || isLegacyDataRequestWarning(error)) return;
  console.error(JSON.stringify({ event: "unhandled_error", url: request.url, error: String(error) }));
  if (error instanceof Error && error.stack) console.error(error.stack);
}
