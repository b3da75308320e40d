import { useMatches } from "@remix-run/react";

/**
 * A route that needs no script exports `handle = staticPage`: its page is served as plain HTML and
 * never hydrates, so a first visit downloads no JavaScript (landing, terms, privacy). Links and forms
 * work as they do everywhere without JavaScript.
 */
export const staticPage = { hydrate: false } as const;

/** Whether the page being shown hydrates: every route does unless one of its matches is a static page. */
export function usePageHydrates() {
  return !useMatches().some((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
}
