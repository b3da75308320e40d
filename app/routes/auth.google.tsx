import { type ActionFunctionArgs, redirect } from "@remix-run/cloudflare";

import { safeRedirectPath } from "~/domain/safe-redirect";
import { afterGoogleCookie, googleAuthenticator } from "~/server/auth/google.server";
import { readFormData } from "~/server/form-body.server";

// Public: a GET has nothing to do here.
export async function loader() {
  return redirect("/login");
}

// Public: starts Google sign-in (state and PKCE in a short-lived cookie), then off to Google.
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const redirectTo = safeRedirectPath(form.get("redirect")?.toString(), "/auth-callback");
  try {
    // The strategy needs only the URL and cookies; the form body has been read already.
    const bodyless = new Request(request.url, { headers: request.headers });
    await googleAuthenticator(context, request).authenticate("google", bodyless);
    throw new Error("Google sign-in did not redirect");
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    thrown.headers.append("Set-Cookie", await afterGoogleCookie.serialize(redirectTo));
    return thrown;
  }
}
