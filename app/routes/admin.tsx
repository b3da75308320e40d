import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet } from "@remix-run/react";

import { AdminNav } from "~/components/admin/admin-nav";
import { requireAdmin } from "~/server/auth/guards.server";

// The admins' part of the site. This guard covers the whole subtree; every child route runs its own
// guard too, since Remix runs child loaders alongside this one, not after it.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  return null;
}

export default function AdminLayout() {
  return (
    <>
      <AdminNav />
      <Outlet />
    </>
  );
}
