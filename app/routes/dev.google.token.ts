import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";

import { STAND_IN_CLIENT } from "~/server/auth/google.server";
import { exchangeCode } from "~/server/auth/google-stand-in.server";
import { readFormData } from "~/server/form-body.server";
import { postOnly } from "~/server/methods.server";
import { requireStandIns } from "~/server/stand-ins.server";

/** The client id from HTTP Basic auth (checking the secret) or from the form, as Google accepts both. */
function authenticatedClient(request: Request, form: URLSearchParams): string | null {
  const basic = request.headers.get("Authorization")?.match(/^Basic (.+)$/)?.[1];
  if (basic) {
    const [id, secret] = atob(basic).split(":").map(decodeURIComponent);
    return secret === STAND_IN_CLIENT.secret ? (id ?? null) : null;
  }
  return form.get("client_secret") === STAND_IN_CLIENT.secret ? form.get("client_id") : null;
}

export function loader(args: LoaderFunctionArgs) {
  requireStandIns(args.context);
  return postOnly(args);
}

// Development and tests only: Google's token endpoint.
export async function action({ request, context }: ActionFunctionArgs) {
  requireStandIns(context);
  const form = new URLSearchParams();
  for (const [name, value] of await readFormData(request)) if (typeof value === "string") form.set(name, value);
  const { status, body } = await exchangeCode(context.config, form, authenticatedClient(request, form));
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}
