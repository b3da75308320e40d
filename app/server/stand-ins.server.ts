import type { AppLoadContext } from "@remix-run/cloudflare";

/** Guard of the /dev/* stand-in routes: they do not exist in production. */
export function requireStandIns(context: AppLoadContext) {
  if (!context.config.standInsEnabled) throw new Response("Not Found", { status: 404 });
}
