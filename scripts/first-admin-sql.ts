// The first admin of a new deployment, as SQL for `wrangler d1 execute` (scripts/first-admin.ts): the
// account with no password, and a one-time invite link (the same kind an admin's "Add admin" sends)
// through which they choose their own. Every statement is conditional, so the command does nothing
// once any admin exists: later admins are added by an admin, never by this command.
import { INVITE_LINK_LIFETIME_MS } from "../app/domain/constants.ts";
import { LANGUAGES } from "../app/domain/languages.ts";

export interface FirstAdmin {
  email: string;
  firstName: string;
  lastName: string;
  language: (typeof LANGUAGES)[number];
}

/** Why these details cannot make an account, or null. */
export function firstAdminProblem(admin: FirstAdmin): string | null {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(admin.email) || admin.email.length > 254) return "--email must be an email address";
  for (const [flag, name] of [
    ["--first-name", admin.firstName],
    ["--last-name", admin.lastName],
  ] as const) {
    if (name.trim() === "" || name.length > 100) return `${flag} must be 1 to 100 characters`;
  }
  if (!LANGUAGES.includes(admin.language)) return `--language must be one of ${LANGUAGES.join(", ")}`;
  return null;
}

const quoted = (value: string) => `'${value.replaceAll("'", "''")}'`;

function urlSafeRandomToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

async function sha256Hex(value: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The statements that make the first admin, and the invite token their link carries (its SHA-256 is
 * what D1 keeps, as for every one-time link). `userId` lets the caller check the account was made.
 */
export async function firstAdminStatements(admin: FirstAdmin, now = new Date()) {
  const userId = crypto.randomUUID();
  const token = urlSafeRandomToken();
  const nowMs = now.getTime();
  const id = quoted(userId);
  const noAdminYet = "NOT EXISTS (SELECT 1 FROM user_roles WHERE role = 'admin')";
  const userMade = `EXISTS (SELECT 1 FROM users WHERE id = ${id})`;
  const statements = [
    `INSERT INTO users (id, email, created_at, updated_at) SELECT ${id}, ${quoted(admin.email.trim().toLowerCase())}, ${nowMs}, ${nowMs} WHERE ${noAdminYet}`,
    `INSERT INTO user_roles (user_id, role, created_at) SELECT ${id}, 'admin', ${nowMs} WHERE ${userMade}`,
    `INSERT INTO profiles (user_id, first_name, last_name, preferred_language, created_at, updated_at) SELECT ${id}, ${quoted(admin.firstName.trim())}, ${quoted(admin.lastName.trim())}, ${quoted(admin.language)}, ${nowMs}, ${nowMs} WHERE ${userMade}`,
    `INSERT INTO auth_tokens (id, user_id, purpose, created_at, expires_at) SELECT ${quoted(await sha256Hex(token))}, ${id}, 'invite', ${nowMs}, ${nowMs + INVITE_LINK_LIFETIME_MS} WHERE ${userMade}`,
    `INSERT INTO audit_log (actor_id, action, target_type, target_id, details, created_at) SELECT NULL, 'admin.account_created', 'user', ${id}, '{"role":"admin","by":"the first-admin command"}', ${nowMs} WHERE ${userMade}`,
  ];
  return { userId, token, statements };
}
