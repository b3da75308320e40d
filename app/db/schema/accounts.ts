// Accounts: people, how they sign in (passwords, Google, one-time links, sessions), their roles,
// profiles, and the doctors' professional details.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { MIN_EXPERIENCE_YEARS } from "../../domain/constants.ts";
import { LANGUAGES } from "../../domain/languages.ts";
import { DEFAULT_DOCTOR_SPECIALTY, DOCTOR_STATUSES, ROLES } from "../../domain/roles.ts";
import { createdAt, id, isBoolean, oneOf, updatedAt } from "./columns.ts";

export const AUTH_TOKEN_PURPOSES = ["email_confirmation", "password_reset", "invite", "sign_in"] as const;

export const users = sqliteTable(
  "users",
  {
    id: id(),
    /** Stored lower-cased; the unique index makes one account per address. */
    email: text("email").notNull(),
    emailConfirmedAt: integer("email_confirmed_at", { mode: "timestamp_ms" }),
    /** When the person closed their account: from then on it is anonymised and no one can sign in to it. */
    closedAt: integer("closed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), check("users_email_lower", sql`${t.email} = lower(${t.email})`)],
);

export const passwordCredentials = sqliteTable("password_credentials", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`: the algorithm travels with the hash. */
  passwordHash: text("password_hash").notNull(),
  updatedAt: updatedAt(),
});

// Triggers on this table and on doctors (migrations/0016, 0017) count the changes that can end a session
// early, for the rooms (docs/decisions/0040): a migration that rebuilds either table must create them again.
export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the random cookie value, so a copy of the table cannot be replayed as cookies. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
    /** The absolute end of the session, however active it stays. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId), index("sessions_expires_at_idx").on(t.expiresAt)],
);

export const userRoles = sqliteTable(
  "user_roles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("user_roles_role_idx").on(t.role), check("user_roles_role_valid", oneOf("role", ROLES))],
);

export const profiles = sqliteTable(
  "profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** E.164, e.g. +251911234567. */
    phone: text("phone"),
    preferredLanguage: text("preferred_language", { enum: LANGUAGES }).notNull().default("en"),
    consentTerms: integer("consent_terms", { mode: "boolean" }).notNull().default(false),
    consentPrivacy: integer("consent_privacy", { mode: "boolean" }).notNull().default(false),
    consentTimestamp: integer("consent_timestamp", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("profiles_name_idx").on(t.lastName, t.firstName),
    check("profiles_language_valid", oneOf("preferred_language", LANGUAGES)),
    check("profiles_consent_terms_bool", isBoolean("consent_terms")),
    check("profiles_consent_privacy_bool", isBoolean("consent_privacy")),
  ],
);

// Its status and rows are counted by triggers for the rooms (migrations/0016 and 0017; see sessions above).
export const doctors = sqliteTable(
  "doctors",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: DOCTOR_STATUSES }).notNull().default("active"),
    specialty: text("specialty").notNull().default(DEFAULT_DOCTOR_SPECIALTY),
    /** The short code patients may give to ask for this doctor. */
    doctorCode: text("doctor_code").notNull(),
    licenceNumber: text("licence_number"),
    licenceExpiresOn: text("licence_expires_on"),
    licenceFileKey: text("licence_file_key"),
    experienceYears: integer("experience_years"),
    profilePictureKey: text("profile_picture_key"),
    /** The languages the doctor consults in, comma-separated language codes (e.g. "am,en"). */
    consultationLanguages: text("consultation_languages").notNull().default("am,en"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("doctors_doctor_code_unique").on(t.doctorCode),
    index("doctors_status_idx").on(t.status),
    check("doctors_status_valid", oneOf("status", DOCTOR_STATUSES)),
    check(
      "doctors_experience_range",
      sql`${t.experienceYears} IS NULL OR ${t.experienceYears} >= ${sql.raw(String(MIN_EXPERIENCE_YEARS))}`,
    ),
  ],
);

/** One-time links (confirm email, reset password, accept an invite). Only the token's hash is kept. */
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    /** SHA-256 of the random token in the link. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: AUTH_TOKEN_PURPOSES }).notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("auth_tokens_user_idx").on(t.userId, t.purpose),
    index("auth_tokens_expires_idx").on(t.expiresAt),
    check("auth_tokens_purpose_valid", oneOf("purpose", AUTH_TOKEN_PURPOSES)),
  ],
);

/** Sign-ins through another provider (Google), by that provider's stable user id. */
export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    provider: text("provider").notNull(),
    providerUserId: text("provider_user_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index("oauth_accounts_user_idx").on(t.userId)],
);

export type User = typeof users.$inferSelect;
export type Profile = typeof profiles.$inferSelect;
export type Doctor = typeof doctors.$inferSelect;
