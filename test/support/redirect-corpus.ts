// Redirect targets an attacker would try after sign-in: each must either be refused (the fallback)
// or stay a path on this site once a browser reads it.
const HOSTILE_REDIRECT_TARGETS = [
  "//evil.example",
  "///evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/a/..//evil.example",
  "/a/.././/evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/./\\evil.example",
  "/%2f%2fevil.example",
  "/%5c%5cevil.example",
  "/.%2F/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/%09/evil.example",
  "/%0d%0aSet-Cookie:%20x=1",
  "/\u3002/evil.example",
  "/\u202e/evil.example",
  "https://evil.example/",
  "http:evil.example",
  "HTTPS://evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  " /evil.example",
  "evil.example",
  "%2f%2fevil.example",
  `/${"a".repeat(5000)}`,
  `/${"%2e".repeat(1000)}//evil.example`,
] as const;

/** True when `location` (a Location header or a redirect path) stays on `origin` and is of sane length. */
export function staysOnSite(location: string | null, origin: string): boolean {
  if (location === null || location.length > 2100) return false;
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u001f\\]/.test(location)) return false;
  try {
    return new URL(location, origin).origin === origin;
  } catch {
    return false;
  }
}

/** `[label, target]` pairs for `it.each`, with long targets shortened in the label. */
export const HOSTILE_REDIRECT_CASES = HOSTILE_REDIRECT_TARGETS.map((target) => {
  const shown = JSON.stringify(target);
  return [shown.length > 50 ? `${shown.slice(0, 30)}… (${target.length} chars)` : shown, target] as const;
});
