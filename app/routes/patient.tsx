import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet } from "@remix-run/react";

import { requirePatient } from "~/server/auth/guards.server";

// The patients' part of the site. This guard covers the whole subtree; every child route runs its own
// guard too, since Remix runs child loaders alongside this one, not after it.
export async function loader(args: LoaderFunctionArgs) {
  await requirePatient(args);
  return null;
}

export default function PatientLayout() {
  return <Outlet />;
}
