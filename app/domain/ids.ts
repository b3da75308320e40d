// Ids that arrive from outside (URLs, forms) are checked for their shape before anything uses them, so
// a forged value (a 60 KB string, a CR/LF) never reaches a query, a header or a log.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** `value` when it is a UUID, else null. */
export function uuidOrNull(value: unknown): string | null {
  return isUuid(value) ? value : null;
}
