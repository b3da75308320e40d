// Devices that have signed in to an account before: a signed cookie listing the accounts (by a hash of
// their email) this browser has proved a password or Google for. Guesses spread over many clients
// slow an account down (rate-limits.ts, ACCOUNT_BACKOFF); its owner's own devices are never slowed.
import { createCookie } from "@remix-run/cloudflare";
import type { AppConfig } from "~/server/env.server";
import { sha256Hex } from "~/server/auth/tokens.server";

const REMEMBERED_ACCOUNTS_MAX = 5;
const KNOWN_DEVICE_LIFETIME_S = 365 * 24 * 60 * 60;

function knownDeviceCookie(config: AppConfig) {
  return createCookie("__Host-qoda_known_device", {
    path: "/",
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    maxAge: KNOWN_DEVICE_LIFETIME_S,
    secrets: [config.SESSION_SECRET],
  });
}

const accountMark = async (email: string) => (await sha256Hex(`known-device:${email.toLowerCase()}`)).slice(0, 24);

async function rememberedAccounts(request: Request, config: AppConfig): Promise<string[]> {
  const value: unknown = await knownDeviceCookie(config).parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Whether this browser has signed in to `email`'s account before (a cookie we signed says so). */
export async function isKnownDevice(request: Request, email: string, config: AppConfig) {
  return (await rememberedAccounts(request, config)).includes(await accountMark(email));
}

/** The Set-Cookie value that adds `email`'s account to this browser's known accounts. */
export async function rememberDevice(request: Request, email: string, config: AppConfig) {
  const mark = await accountMark(email);
  const others = (await rememberedAccounts(request, config)).filter((item) => item !== mark);
  return knownDeviceCookie(config).serialize([mark, ...others].slice(0, REMEMBERED_ACCOUNTS_MAX));
}
