/**
 * The path to send someone to after signing in: only a path on this site, never another host
 * (`//evil.example`, `/\evil.example`, `https://…`, `javascript:`); anything else is `fallback`.
 */
export function safeRedirectPath(target: string | null | undefined, fallback: string): string {
  if (!target || typeof target !== "string") return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // Control characters and backslashes can be read as a host by some browsers.
  if (/[\u0000-\u001f\\]/.test(target)) return fallback;
  try {
    const resolved = new URL(target, "https://qoda.invalid");
    if (resolved.origin !== "https://qoda.invalid") return fallback;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return fallback;
  }
}
