import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";

import { requireActiveDoctor } from "~/server/auth/guards.server";

// /doctor on its own is the dashboard.
export async function loader(args: LoaderFunctionArgs) {
  await requireActiveDoctor(args);
  return redirect("/doctor/dashboard");
}
