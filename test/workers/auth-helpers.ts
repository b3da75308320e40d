import { desc, eq } from "drizzle-orm";

import { mailOutbox } from "~/db/schema";

import { Visitor } from "./browser-like";
import { db } from "./fixtures";

export const GOOD_PASSWORD = "Skin-Care-2026";

async function newestEmailTo(to: string) {
  const [message] = await db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, to)).orderBy(desc(mailOutbox.createdAt)).limit(1);
  return message ?? null;
}

/**
 * The newest email to `to` (other than `notId`), and the first link in it. Account mail is sent after
 * the answer (so its timing tells nothing), so this waits a little for it; null if none comes.
 */
export async function lastEmailTo(to: string, { notId }: { notId?: string } = {}) {
  let message = await newestEmailTo(to);
  for (let waited = 0; (!message || message.id === notId) && waited < 3_000; waited += 25) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    message = await newestEmailTo(to);
  }
  if (!message || message.id === notId) return null;
  const link = /https?:\/\/\S+/.exec(message.textBody)?.[0] ?? null;
  return { ...message, link: link ? new URL(link) : null };
}

/** Every email to `to`, oldest first. */
export function emailsTo(to: string) {
  return db.select().from(mailOutbox).where(eq(mailOutbox.toEmail, to)).orderBy(mailOutbox.createdAt);
}

export const uniqueEmail = (label = "patient") => `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;

export function registrationForm(email: string, overrides: Record<string, string | undefined> = {}) {
  const form: Record<string, string> = {
    firstName: "Liya",
    lastName: "Mekonnen",
    email,
    password: GOOD_PASSWORD,
    confirmPassword: GOOD_PASSWORD,
    acceptTerms: "on",
    acceptPrivacy: "on",
  };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete form[name];
    else form[name] = value;
  }
  return form;
}

/** Registers, confirms through the emailed link and signs in; returns the signed-in visitor. */
export async function registeredPatient(email = uniqueEmail()) {
  const visitor = new Visitor();
  await visitor.post("/register", registrationForm(email));
  const confirmation = await lastEmailTo(email);
  await visitor.get(`${confirmation!.link!.pathname}${confirmation!.link!.search}`);
  const response = await visitor.post("/login", { email, password: GOOD_PASSWORD });
  return { visitor, email, signInResponse: response };
}
