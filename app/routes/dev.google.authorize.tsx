import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";

import { AuthCard } from "~/components/auth-card";
import { getTranslator, pageTitle } from "~/i18n.server";
import { STAND_IN_CLIENT } from "~/server/auth/google.server";
import { issueCode, STAND_IN_IDENTITIES } from "~/server/auth/google-stand-in.server";
import { readFormData } from "~/server/form-body.server";
import { requireStandIns } from "~/server/stand-ins.server";

const PASSED_ON = ["client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "scope", "response_type"] as const;

/** What Google accepts as `state` and a PKCE challenge: short, URL-safe; it echoes them back. */
const URL_SAFE_TOKEN = /^[A-Za-z0-9._~-]{1,512}$/;

/**
 * The authorization request, checked as Google would: our client, the registered redirect URI exactly,
 * PKCE S256, and a well-formed state (which is echoed into a Location header).
 */
function readAuthorizationRequest(request: Request, params: URLSearchParams) {
  const redirectUri = params.get("redirect_uri") ?? "";
  const valid =
    params.get("response_type") === "code" &&
    params.get("client_id") === STAND_IN_CLIENT.id &&
    redirectUri === `${new URL(request.url).origin}/auth/google/callback` &&
    params.get("code_challenge_method") === "S256" &&
    URL_SAFE_TOKEN.test(params.get("code_challenge") ?? "") &&
    URL_SAFE_TOKEN.test(params.get("state") ?? "");
  if (!valid) throw new Response("invalid_request", { status: 400 });
  return { redirectUri, state: params.get("state")!, challenge: params.get("code_challenge")! };
}

// Development and tests only: Google's consent screen, where you pick a test identity.
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireStandIns(context);
  const params = new URL(request.url).searchParams;
  readAuthorizationRequest(request, params);
  const t = await getTranslator(request);
  return {
    title: pageTitle(t("devTools.google.title")),
    // Worded here: the page ships none of its own texts.
    words: { title: t("devTools.google.title"), intro: t("devTools.google.intro"), cancel: t("devTools.google.cancel") },
    identities: STAND_IN_IDENTITIES,
    params: Object.fromEntries(PASSED_ON.map((name) => [name, params.get(name) ?? ""])),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action({ request, context }: ActionFunctionArgs) {
  requireStandIns(context);
  const form = await readFormData(request);
  const params = new URLSearchParams(PASSED_ON.map((name) => [name, form.get(name)?.toString() ?? ""]));
  const { redirectUri, state, challenge } = readAuthorizationRequest(request, params);
  const identity = STAND_IN_IDENTITIES.find((candidate) => candidate.sub === form.get("sub"));
  const back = new URL(redirectUri);
  back.searchParams.set("state", state);
  if (!identity) back.searchParams.set("error", "access_denied");
  else back.searchParams.set("code", await issueCode(context.config, identity, { challenge, redirectUri, clientId: STAND_IN_CLIENT.id }));
  return redirect(back.toString());
}

export default function GoogleStandIn() {
  const { identities, params, words } = useLoaderData<typeof loader>();
  return (
    <AuthCard title={words.title} intro={words.intro}>
      {/* A full page post, as on Google's own page: the browser itself follows the redirect back. */}
      <Form method="post" reloadDocument className="flex flex-col gap-2">
        {Object.entries(params).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {identities.map((identity) => (
          <button
            key={identity.sub}
            type="submit"
            name="sub"
            value={identity.sub}
            className="btn btn-outline justify-start"
            data-testid={`google-identity-${identity.sub}`}
          >
            {identity.given_name} {identity.family_name} · {identity.email}
          </button>
        ))}
        <button type="submit" name="sub" value="" className="btn btn-ghost">
          {words.cancel}
        </button>
      </Form>
    </AuthCard>
  );
}
