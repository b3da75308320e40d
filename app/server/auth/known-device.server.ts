// Devices that have signed in to an account before: a signed cookie with a random id for this browser
// and the accounts (by a keyed hash of their email, so a shared computer does not tell who used it) it
// has proved a password or Google for. On a known device, failed sign-ins are counted per device, not
// per address (many phones share one), and the account-wide backoff does not apply: guessing elsewhere
// never slows the owner's own devices. Signing out keeps the mark: the device is still its owner's.
import { createCookie } from "@remix-run/cloudflare";
import { z } from "zod";

import { randomToken } from "~/server/auth/tokens.server";
import type { AppConfig } from "~/server/env.server";
import { hmacSign, toHex } from "~/server/hmac.server";

const REMEMBERED_ACCOUNTS_MAX = 5;
const KNOWN_DEVICE_LIFETIME_S = 90 * 24 * 60 * 60;

const KnownDevice = z.object({ id: z.string().min(1).max(64), accounts: z.array(z.string().max(64)).max(REMEMBERED_ACCOUNTS_MAX) });
type KnownDevice = z.infer<typeof KnownDevice>;

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

async function accountMark(email: string, config: AppConfig) {
  const mark = await hmacSign(`known-device:${config.SESSION_SECRET}`, email.toLowerCase());
  return toHex(mark.slice(0, 12));
}

async function knownDevice(request: Request, config: AppConfig): Promise<KnownDevice | null> {
  const parsed = KnownDevice.safeParse(await knownDeviceCookie(config).parse(request.headers.get("Cookie")));
  return parsed.success ? parsed.data : null;
}

/** This browser's id if it has signed in to `email`'s account before (a cookie we signed says so), else null. */
export async function knownDeviceIdFor(request: Request, email: string, config: AppConfig): Promise<string | null> {
  const device = await knownDevice(request, config);
  return device && device.accounts.includes(await accountMark(email, config)) ? device.id : null;
}

/** The Set-Cookie value that adds `email`'s account to this browser's known accounts. */
export async function rememberDevice(request: Request, email: string, config: AppConfig) {
  const mark = await accountMark(email, config);
  const device = (await knownDevice(request, config)) ?? { id: randomToken().slice(0, 22), accounts: [] };
  const accounts = [mark, ...device.accounts.filter((item) => item !== mark)].slice(0, REMEMBERED_ACCOUNTS_MAX);
  return knownDeviceCookie(config).serialize({ id: device.id, accounts } satisfies KnownDevice);
}
