// Signing up by email. The answer is the same whether or not the address already has an account, and
// the work happens after it (afterResponse), so neither the words nor the timing tell: a new address
// gets its confirmation link, a taken one's owner is told someone tried. The work still runs in the
// same isolate as the answer, and hashing the password is its one heavy step, so both kinds of address
// hash it (a taken one throws the hash away): otherwise a new address's answer came ~12 ms later
// (`npm run bench:sign-up`).
import type { AppLoadContext } from "@remix-run/cloudflare";

import type { Language } from "~/domain/languages";
import { RATE_LIMITS } from "~/domain/rate-limits";
import { recordAudit } from "~/server/audit.server";
import { sendAccountLink, sendAccountNotice } from "~/server/auth/account-links.server";
import { createPatient, findUserByEmail } from "~/server/auth/accounts.server";
import { hashPassword } from "~/server/auth/password.server";
import { takeAttempt } from "~/server/rate-limit.server";

export interface SignUpForm {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export async function signUpOrTellOwner(context: AppLoadContext, request: Request, form: SignUpForm, language: Language) {
  const now = new Date();
  const { db } = context;
  const { password, ...names } = form;
  const passwordHash = await hashPassword(password);
  const userId = await createPatient(
    db,
    { ...names, passwordHash, consented: true, emailConfirmed: false, preferredLanguage: language },
    now,
  );
  if (userId) {
    await sendAccountLink("confirm", context, request, userId, now);
    await recordAudit(db, request, { action: "auth.sign_up", actorId: userId, targetType: "user", targetId: userId });
    return;
  }
  const owner = await findUserByEmail(db, form.email);
  // Sign-ups with someone's address cannot flood their inbox: one notice an hour.
  if (!owner || !(await takeAttempt(db, [[`notice:sign-up-taken:${owner.email}`, RATE_LIMITS.noticesPerAddress]], now)).allowed) return;
  await sendAccountNotice("signUpTaken", context, request, owner.id);
}
