import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { lazy, type ReactNode, Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";

import stylesheet from "~/app.css?url";
import { SessionEndedNotice } from "~/components/session-ended-notice";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { StatusPage as StatusPageOnServer } from "~/components/status-page";
import { LatestToast } from "~/components/toaster";
import { useFocusOnArrival } from "~/components/use-focus-on-arrival";
import { formatYear } from "~/domain/dates";
import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY } from "~/domain/languages";
import type { Role } from "~/domain/roles";
import { type Audience, guestTexts } from "~/i18n";
import { detectLanguage, getTranslator, pageTitle } from "~/i18n.server";
import { useNonce } from "~/nonce";
import { offlineReading } from "~/offline/offline-reading-script";
import { OFFLINE_STORES } from "~/offline/stores";
import { usePageHydrates } from "~/page-hydration";
import { findSessionUser } from "~/server/auth/session.server";
import { unreadNotificationCount } from "~/server/db/notifications.server";
import { doctorCodeOf, pendingRequestCount } from "~/server/db/requests.server";
import { readToast } from "~/server/toast.server";
import { enhanceStaticPage } from "~/static-page-script";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  // (No type: the server names it image/svg+xml, and root's every byte counts against the pages' JS budgets.)
  { rel: "icon", href: "/favicon.svg" },
  // Installable (issue 18). Fetched with the reader's cookie, so the manifest speaks the language they chose.
  { rel: "manifest", href: "/manifest.webmanifest", crossOrigin: "use-credentials" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [language, t, toast, user] = await Promise.all([
    detectLanguage(request),
    getTranslator(request),
    readToast(request, context.config),
    findSessionUser(context.db, request, new Date()),
  ]);
  // Active doctors see the live request bell; the first count comes with the page.
  const doctorBell =
    user?.role === "doctor" && user.doctorStatus === "active"
      ? {
          initialCount: await pendingRequestCount(context.db, user.userId, new Date()),
          doctorCode: await doctorCodeOf(context.db, user.userId),
        }
      : null;
  // Patients and doctors have the notifications bell; its count comes with every page.
  const unreadNotifications = user && user.role !== "admin" ? await unreadNotificationCount(context.db, user.userId) : null;
  const headers = new Headers();
  if (toast.setCookie) headers.append("Set-Cookie", toast.setCookie);
  return data(
    {
      language,
      // Translated here, so the browser needs none of the texts toasts may use.
      toast: toast.toast
        ? {
            kind: toast.toast.kind,
            title: t(toast.toast.title, toast.toast.values),
            description: toast.toast.description ? t(toast.toast.description, toast.toast.values) : null,
          }
        : null,
      signedInRole: user?.role ?? null,
      // Whose pages the offline service worker keeps: patients' and doctors' own, never an admin's.
      offlineAccount: user && user.role !== "admin" ? user.userId : null,
      doctorBell,
      unreadNotifications,
      // For the error boundary, which has no loader of its own to translate a title.
      errorTitle: pageTitle(t("pages.error.title")),
      // The footer's copyright year on the reader's calendar (worded here: pages ship no date code for it).
      year: formatYear(new Date(), language),
    },
    { headers },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data: rootData }) => [{ title: rootData?.errorTitle ?? "Qoda" }];

/**
 * Whose texts the browser loads besides the shared ones (i18n.client): the signed-in reader's role's,
 * and the guest's for a reader not signed in or on a page of account links.
 */
function audiencesOf(role: Role | null, guestPage: boolean): string {
  const audiences: Audience[] = role ? [role] : [];
  if (!role || guestPage) audiences.push("guest");
  return audiences.join(" ");
}

/** The inline script of a static page; only the server renders one, so browsers never download it. */
const staticPageScript = (language: string) =>
  import.meta.env.SSR
    ? `{let __name=(f)=>f;(${enhanceStaticPage.toString()})(${JSON.stringify(LANGUAGE_STORAGE_KEY)},${JSON.stringify(language)})}`
    : "";

/** The inline script of offline reading (offline/offline-reading-script); only the server renders it. */
const offlineReadingScript = (account: string | null) =>
  import.meta.env.SSR
    ? `{let __name=(f)=>f;(${offlineReading.toString()})(${JSON.stringify(account)},${JSON.stringify(OFFLINE_STORES)})}`
    : "";

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const { t } = useTranslation();
  const nonce = useNonce();
  const language = rootData?.language ?? DEFAULT_LANGUAGE;
  const hydrates = usePageHydrates();
  const guestPage = useMatches().some((match) => (match.handle as { texts?: string } | undefined)?.texts === guestTexts.texts);
  return (
    <html lang={language} dir="ltr" data-audience={audiencesOf(rootData?.signedInRole ?? null, guestPage)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-base-100 font-sans text-base-content antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 btn btn-sm">
          {t("shell.skipToContent")}
        </a>
        <SiteHeader
          signedInRole={rootData?.signedInRole ?? null}
          doctorBell={rootData?.doctorBell ?? null}
          unreadNotifications={rootData?.unreadNotifications ?? null}
        />
        <main id="main" className="flex-1">
          {children}
        </main>
        {/* An error page may have no root data: the Gregorian year then. */}
        <SiteFooter year={rootData?.year ?? String(new Date().getFullYear())} />
        <LatestToast toast={rootData?.toast ?? null} />
        {rootData?.signedInRole ? <SessionEndedNotice /> : null}
        {/* Rendered by the server alone: the browser keeps it as it came (a client render has no text for it). */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? offlineReadingScript(rootData?.offlineAccount ?? null) : "" }}
        />
        {hydrates ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          // A static page gets what little JavaScript it needs inline (see static-page-script).
          // (The server build names functions with esbuild's `__name`; the page gets a no-op for it.)
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: staticPageScript(language) }} />
        )}
      </body>
    </html>
  );
}

export default function App() {
  const { language } = useLoaderData<typeof loader>();
  useChangeLanguage(language);
  useFocusOnArrival();
  // The server's cookie decides; the browser keeps a mirror of the choice (spec: appLanguage).
  useEffect(() => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  }, [language]);
  return <Outlet />;
}

// The error page is rendered whole by the server (it must read without script); browsers load its code
// only when an error happens in the page, so no healthy page pays for it. During hydration React keeps
// the server's HTML until the chunk arrives.
const StatusPageInBrowser = lazy(() => import("~/components/status-page").then((module) => ({ default: module.StatusPage })));
const StatusPage = import.meta.env.SSR ? StatusPageOnServer : StatusPageInBrowser;

/**
 * A load the browser cut short because a quicker tap overtook it (a second navigation) can reach this
 * boundary in Remix 2 (remix-run/react-router#14203); the navigation that overtook it replaces this
 * page at once. Not a failure: nothing to log.
 */
const wasOvertaken = (error: unknown) => error instanceof Error && error.name === "AbortError";

export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) && !wasOvertaken(error)) console.error(error);
  return (
    <Suspense fallback={null}>
      <StatusPage status={isRouteErrorResponse(error) ? error.status : 500} />
    </Suspense>
  );
}
