// The built-in stand-in for Google's OAuth endpoints, on in development and tests only. It issues
// HMAC-signed codes and access tokens (no storage), checks PKCE, and answers in Google's formats.
import type { AppConfig } from "~/server/env.server";
import { hmacSign, hmacVerify } from "~/server/hmac.server";

export const STAND_IN_IDENTITIES = [
  { sub: "stand-in-amina", email: "amina.yusuf@gmail.test", given_name: "Amina", family_name: "Yusuf", email_verified: true },
  { sub: "stand-in-kebede", email: "kebede.tola@gmail.test", given_name: "Kebede", family_name: "Tola", email_verified: true },
  { sub: "stand-in-hana", email: "hana@qoda.test", given_name: "Hana", family_name: "Bekele", email_verified: true },
] as const;
export type StandInIdentity = (typeof STAND_IN_IDENTITIES)[number];

const CODE_LIFETIME_MS = 5 * 60_000;
const TOKEN_LIFETIME_MS = 60 * 60_000;

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));

const standInSecret = (config: AppConfig) => `google-stand-in:${config.SESSION_SECRET}`;

async function sign(config: AppConfig, payload: object) {
  const body = base64url(new TextEncoder().encode(JSON.stringify(payload)));
  return `${body}.${base64url(await hmacSign(standInSecret(config), body))}`;
}

async function verify<T>(config: AppConfig, token: string): Promise<T | null> {
  const [body, signature] = token.split(".");
  if (!body || !signature) return null;
  try {
    const valid = await hmacVerify(standInSecret(config), body, fromBase64url(signature));
    return valid ? (JSON.parse(new TextDecoder().decode(fromBase64url(body))) as T) : null;
  } catch {
    return null;
  }
}

interface CodePayload {
  sub: string;
  challenge: string;
  redirectUri: string;
  clientId: string;
  expiresAt: number;
}

export async function issueCode(
  config: AppConfig,
  identity: StandInIdentity,
  params: { challenge: string; redirectUri: string; clientId: string },
) {
  return sign(config, { sub: identity.sub, ...params, expiresAt: Date.now() + CODE_LIFETIME_MS } satisfies CodePayload);
}

async function s256(verifier: string) {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

/** Google's token endpoint: the error or the token response, as Google would answer. */
export async function exchangeCode(config: AppConfig, form: URLSearchParams, clientId: string | null) {
  const code = await verify<CodePayload>(config, form.get("code") ?? "");
  const invalidGrant = { status: 400, body: { error: "invalid_grant", error_description: "Bad or expired code." } };
  if (form.get("grant_type") !== "authorization_code" || !code || code.expiresAt < Date.now()) return invalidGrant;
  if (code.redirectUri !== form.get("redirect_uri") || code.clientId !== clientId) return invalidGrant;
  if ((await s256(form.get("code_verifier") ?? "")) !== code.challenge) return invalidGrant;
  const accessToken = await sign(config, { sub: code.sub, expiresAt: Date.now() + TOKEN_LIFETIME_MS });
  return {
    status: 200,
    body: { access_token: accessToken, token_type: "Bearer", expires_in: TOKEN_LIFETIME_MS / 1000, scope: "openid email profile" },
  };
}

export async function identityForAccessToken(config: AppConfig, accessToken: string): Promise<StandInIdentity | null> {
  const token = await verify<{ sub: string; expiresAt: number }>(config, accessToken);
  if (!token || token.expiresAt < Date.now()) return null;
  return STAND_IN_IDENTITIES.find((identity) => identity.sub === token.sub) ?? null;
}
