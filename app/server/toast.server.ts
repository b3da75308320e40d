// Toasts travel in a signed flash cookie: an action redirects with one, root renders it once.
import { createCookieSessionStorage, redirect, redirectDocument } from "@remix-run/cloudflare";

import type { AppConfig } from "~/server/env.server";
import { type Toast, ToastSchema } from "~/toast";

const TOAST_KEY = "toast";

function toastStorage(config: AppConfig) {
  return createCookieSessionStorage({
    cookie: {
      name: "__Host-qoda_toast",
      path: "/",
      sameSite: "lax",
      secure: true,
      httpOnly: true,
      secrets: [config.SESSION_SECRET],
    },
  });
}

export async function toastHeaders(config: AppConfig, toast: Toast): Promise<Headers> {
  const storage = toastStorage(config);
  const session = await storage.getSession();
  session.flash(TOAST_KEY, toast);
  return new Headers({ "Set-Cookie": await storage.commitSession(session) });
}

/** `init` with the toast's cookie added to its headers. */
async function withToast(toast: Toast, config: AppConfig, init?: ResponseInit): Promise<ResponseInit> {
  const headers = new Headers(init?.headers);
  for (const cookie of (await toastHeaders(config, toast)).getSetCookie()) headers.append("Set-Cookie", cookie);
  return { ...init, headers };
}

export async function redirectWithToast(url: string, toast: Toast, config: AppConfig, init?: ResponseInit) {
  return redirect(url, await withToast(toast, config, init));
}

/**
 * `redirectWithToast` as a document load: for a hydrated page's form whose answer goes to a static page
 * (app/page-hydration.ts), which is always loaded as a document. An ordinary redirect there made the
 * browser fetch root's data beside the document, and whichever was answered first took the toast: the
 * page sometimes came without it. Told to load the document at once, the browser asks once.
 */
export async function redirectDocumentWithToast(url: string, toast: Toast, config: AppConfig, init?: ResponseInit) {
  return redirectDocument(url, await withToast(toast, config, init));
}

/** The pending toast, if any, and the header that clears it. */
export async function readToast(request: Request, config: AppConfig): Promise<{ toast: Toast | null; setCookie: string | null }> {
  const storage = toastStorage(config);
  // A cookie that is not even the cookie's encoding (Remix's parse throws on it) carries no toast: cleared.
  const session = await storage.getSession(request.headers.get("Cookie")).catch(() => null);
  if (!session) return { toast: null, setCookie: await storage.destroySession(await storage.getSession()) };
  const raw = session.get(TOAST_KEY);
  if (raw === undefined) return { toast: null, setCookie: null };
  const parsed = ToastSchema.safeParse(raw);
  return { toast: parsed.success ? parsed.data : null, setCookie: await storage.destroySession(session) };
}
