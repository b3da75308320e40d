import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { sql } from "drizzle-orm";

// Liveness for scripts and monitors: the Worker answers and D1 is reachable. Public, says nothing private.
export async function loader({ context }: LoaderFunctionArgs) {
  await context.db.run(sql`SELECT 1`);
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
