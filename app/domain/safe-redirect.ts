// Where to send someone after signing in, when the address came from them (`?redirect=`, a form
// field, a cookie). The decision is made on the URL as a browser will read it, after normalisation:
// `/%2e//evil.example` and `/a/..//evil.example` both normalise to `//evil.example`, another host.

/** Longer targets are refused rather than echoed into a Location header. */
const MAX_REDIRECT_CHARS = 2048;

const PARSE_BASE = "https://qoda.invalid";

/** The path, query and fragment `target` resolves to on this site, or null when it leaves the site. */
function normalisedPath(target: string): string | null {
  try {
    const resolved = new URL(target, PARSE_BASE);
    if (resolved.origin !== PARSE_BASE) return null;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return null;
  }
}

/**
 * A path on this site to redirect to, or `fallback`. Accepted only when the target is a plain
 * absolute path (no scheme, no host, no backslash or control character) whose normalised form is
 * still one (not `//host`) and stays the same when read again, so no browser can read it otherwise.
 */
export function safeRedirectPath(target: string | null | undefined, fallback: string): string {
  if (typeof target !== "string" || target.length === 0 || target.length > MAX_REDIRECT_CHARS) return fallback;
  // Browsers drop tabs and newlines and read a backslash as a slash, so `/\t/host` is `//host`.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (!target.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  const path = normalisedPath(target);
  if (path === null || path.length > MAX_REDIRECT_CHARS || !path.startsWith("/") || path.startsWith("//")) return fallback;
  return normalisedPath(path) === path ? path : fallback;
}
