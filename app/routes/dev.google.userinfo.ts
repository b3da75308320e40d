import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { identityForAccessToken } from "~/server/auth/google-stand-in.server";
import { requireStandIns } from "~/server/stand-ins.server";

// Development and tests only: Google's OpenID Connect userinfo endpoint.
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireStandIns(context);
  const token = request.headers.get("Authorization")?.match(/^Bearer (.+)$/)?.[1] ?? "";
  const identity = await identityForAccessToken(context.config, token);
  if (!identity) return Response.json({ error: "invalid_token" }, { status: 401 });
  return Response.json(identity);
}
