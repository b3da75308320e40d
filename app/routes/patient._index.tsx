import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";

import { requirePatient } from "~/server/auth/guards.server";

// /patient on its own is the dashboard.
export async function loader(args: LoaderFunctionArgs) {
  await requirePatient(args);
  return redirect("/patient/dashboard");
}
