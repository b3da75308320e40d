// Google sign-in through remix-auth with remix-auth-oauth2 (authorization code with PKCE and state).
// Endpoints come from configuration; outside production they default to the built-in stand-in on this
// same site (/dev/google/*), which speaks Google's wire format, so this code is what runs everywhere.
import { type AppLoadContext, createCookie } from "@remix-run/cloudflare";
import { Authenticator } from "remix-auth";
import { CodeChallengeMethod, OAuth2Strategy } from "remix-auth-oauth2";

import { cleanLine } from "~/domain/text-hygiene";

/** Where to go after Google brings the person back; only a path on this site. */
export const afterGoogleCookie = createCookie("__Host-qoda_after_google", {
  path: "/",
  httpOnly: true,
  secure: true,
  sameSite: "lax",
  maxAge: 10 * 60,
});

export interface GoogleProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

const GOOGLE_ENDPOINTS = {
  authorization: "https://accounts.google.com/o/oauth2/v2/auth",
  token: "https://oauth2.googleapis.com/token",
  userinfo: "https://openidconnect.googleapis.com/v1/userinfo",
};
export const STAND_IN_CLIENT = { id: "qoda-local", secret: "qoda-local-secret" };

function endpoints(context: AppLoadContext, origin: string) {
  const { config } = context;
  const standIn = config.standInsEnabled;
  return {
    authorization: config.GOOGLE_AUTHORIZATION_ENDPOINT ?? (standIn ? `${origin}/dev/google/authorize` : GOOGLE_ENDPOINTS.authorization),
    token: config.GOOGLE_TOKEN_ENDPOINT ?? (standIn ? `${origin}/dev/google/token` : GOOGLE_ENDPOINTS.token),
    userinfo: config.GOOGLE_USERINFO_ENDPOINT ?? (standIn ? `${origin}/dev/google/userinfo` : GOOGLE_ENDPOINTS.userinfo),
    clientId: config.GOOGLE_CLIENT_ID ?? STAND_IN_CLIENT.id,
    clientSecret: config.GOOGLE_CLIENT_SECRET ?? STAND_IN_CLIENT.secret,
  };
}

/** A name from Google, cleaned like a typed one: one line, no controls, fits our screens. */
const cleanName = (name: string) => [...cleanLine(name).trim()].slice(0, 60).join("");

async function fetchProfile(userinfoEndpoint: string, accessToken: string): Promise<GoogleProfile> {
  const response = await fetch(userinfoEndpoint, { headers: { Authorization: `Bearer ${accessToken}` } });
  if (!response.ok) throw new Error(`Google userinfo answered ${response.status}`);
  const info = (await response.json()) as Record<string, unknown>;
  if (typeof info.sub !== "string" || typeof info.email !== "string") throw new Error("Google userinfo lacks sub or email");
  return {
    sub: info.sub,
    email: info.email.toLowerCase(),
    emailVerified: info.email_verified === true,
    givenName: typeof info.given_name === "string" ? cleanName(info.given_name) : "",
    familyName: typeof info.family_name === "string" ? cleanName(info.family_name) : "",
  };
}

export function googleAuthenticator(context: AppLoadContext, request: Request) {
  const origin = new URL(request.url).origin;
  const google = endpoints(context, origin);
  const authenticator = new Authenticator<GoogleProfile>();
  authenticator.use(
    new OAuth2Strategy<GoogleProfile>(
      {
        cookie: { name: "__Host-qoda_oauth", path: "/", httpOnly: true, secure: true, sameSite: "Lax", maxAge: 10 * 60 },
        clientId: google.clientId,
        clientSecret: google.clientSecret,
        authorizationEndpoint: google.authorization,
        tokenEndpoint: google.token,
        redirectURI: `${origin}/auth/google/callback`,
        scopes: ["openid", "email", "profile"],
        codeChallengeMethod: CodeChallengeMethod.S256,
      },
      async ({ tokens }) => fetchProfile(google.userinfo, tokens.accessToken()),
    ),
    "google",
  );
  return authenticator;
}
