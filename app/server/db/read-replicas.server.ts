// D1 read replication through the Sessions API (docs/decisions/0039). Admin pages and dashboards may
// read from a nearby replica; everything else, and every change, goes to the primary. A reader who has
// just changed something carries the database's bookmark for that change in a signed cookie, and a
// replica answers their reads only once it has caught up with it: they always see their own change.
import { createCookie } from "@remix-run/cloudflare";

/** D1's bookmarks look like `00000000-00000012-00000000-<32 hex>`; anything else is ignored. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
/** Long enough for a replica to have caught up many times over; after it, reads go anywhere again. */
const BOOKMARK_LIFETIME_SECONDS = 10 * 60;

// Signed, so a reader cannot hand D1 a bookmark it never gave (one from the future would stall their reads).
const bookmarkCookie = (secret: string) =>
  createCookie("__Host-qoda_d1", {
    path: "/",
    sameSite: "lax",
    secure: true,
    httpOnly: true,
    maxAge: BOOKMARK_LIFETIME_SECONDS,
    secrets: [secret],
  });

const reads = (request: Request) => request.method === "GET" || request.method === "HEAD";

/** The reads a replica may serve: the admin's pages and the dashboards (lists and counts, read often). */
function mayReadFromReplica(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return reads(request) && (pathname.startsWith("/admin/") || /^\/(patient|doctor|admin)\/dashboard$/.test(pathname));
}

async function bookmarkOf(request: Request, secret: string): Promise<string | null> {
  // A value that is not even the cookie's encoding (Remix's parse throws on it) is no bookmark either.
  const value: unknown = await bookmarkCookie(secret)
    .parse(request.headers.get("Cookie"))
    .catch(() => null);
  return typeof value === "string" && BOOKMARK.test(value) ? value : null;
}

/** The request's D1 session: from the reader's own last change (or any replica) for reads that may, the primary otherwise. */
export async function databaseSessionFor(d1: D1Database, request: Request, secret: string): Promise<D1DatabaseSession> {
  if (!mayReadFromReplica(request)) return d1.withSession("first-primary");
  return d1.withSession((await bookmarkOf(request, secret)) ?? "first-unconstrained");
}

/** After a request that may have changed something: the cookie that carries its bookmark, or null. */
export async function bookmarkCookieAfter(request: Request, session: D1DatabaseSession, secret: string): Promise<string | null> {
  if (reads(request)) return null;
  const bookmark = session.getBookmark();
  if (!bookmark || !BOOKMARK.test(bookmark)) return null;
  return bookmarkCookie(secret).serialize(bookmark);
}
