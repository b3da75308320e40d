import { desc, eq } from "drizzle-orm";
import { expect, vi } from "vitest";

import { mailOutbox } from "~/db/schema";
import { oneTimeLinkStatement } from "~/server/auth/one-time-links.server";

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

/**
 * Asks for a password reset for `email` and waits for that mail: a marker sent after everything the test
 * did before, through the same after-the-answer path. Once it is in the outbox, mail those earlier steps
 * were going to send has had its turn, so a test can then say that some other mail never came.
 */
export async function markerMailArrives(email: string) {
  const isReset = (mail: { subject: string }) => mail.subject === "Reset your Qoda password";
  const before = (await emailsTo(email)).filter(isReset).length;
  expect((await new Visitor().post("/forgot-password", { email })).status).toBe(200);
  await vi.waitFor(async () => expect((await emailsTo(email)).filter(isReset).length).toBe(before + 1), { timeout: 5_000 });
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

/** A one-time link stored for `userId`, as the app stores one with the mail that carries it; its token. */
export async function createOneTimeLink(...args: Parameters<typeof oneTimeLinkStatement>) {
  const { token, statement } = await oneTimeLinkStatement(...args);
  await statement;
  return token;
}
