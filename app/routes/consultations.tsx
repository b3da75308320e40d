import { type LoaderFunctionArgs, redirect } from "@remix-run/cloudflare";

import { requireUser } from "~/server/auth/guards.server";

const LIST_BY_ROLE = { patient: "/patient/consultations", doctor: "/doctor/consultations", admin: "/admin/dashboard" } as const;

// Each role's own list of consultations.
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  return redirect(LIST_BY_ROLE[user.role]);
}
