import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";

import { requireAdmin } from "~/server/auth/guards.server";

// /admin and /admin/dashboard are the same screen (spec).
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  return redirect("/admin/dashboard");
}
