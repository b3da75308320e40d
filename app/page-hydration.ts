import { type ClientLoaderFunctionArgs, useMatches } from "@remix-run/react";

/**
 * A route that needs no script exports `handle = staticPage`: its page is served as plain HTML and
 * never hydrates, so a first visit downloads no JavaScript (docs/decisions/0014). Links and forms
 * work as they do everywhere without JavaScript; static-page-script adds the little they need.
 */
export const staticPage = { hydrate: false } as const;

/**
 * A static route's client loader: reached by a client-side navigation, the page is loaded as a
 * document instead, so it is always rendered by the server (whose texts the browser never gets).
 */
export function loadAsDocument({ request }: ClientLoaderFunctionArgs): Promise<never> {
  window.location.assign(request.url);
  return new Promise<never>(() => undefined);
}

/** Whether the page being shown hydrates: every route does unless one of its matches is a static page. */
export function usePageHydrates() {
  return !useMatches().some((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
}
