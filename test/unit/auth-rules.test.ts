import { describe, expect, it } from "vitest";

import { ChangePasswordSchema, ProfileSchema, RegisterSchema } from "~/domain/auth-schemas";
import { isCommonPassword } from "~/domain/common-passwords";
import { normalizeEthiopianPhone } from "~/domain/phone";
import { ACCOUNT_BACKOFF, accountBackoffDecision, RATE_LIMITS, rateLimitDecision } from "~/domain/rate-limits";
import { safeRedirectPath } from "~/domain/safe-redirect";
import { parseForm } from "~/forms";
import { waitMessage } from "~/refusal-messages";

import { HOSTILE_REDIRECT_CASES, staysOnSite } from "../support/redirect-corpus";

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe("safe redirects", () => {
  it.each([
    ["/patient/dashboard", "/patient/dashboard"],
    ["/doctor/consultation/abc?tab=chat#end", "/doctor/consultation/abc?tab=chat#end"],
    ["//evil.example", "/fallback"],
    ["/\\evil.example", "/fallback"],
    ["https://evil.example/path", "/fallback"],
    ["javascript:alert(1)", "/fallback"],
    ["/%0d%0aSet-Cookie:x", "/%0d%0aSet-Cookie:x"],
    ["/\tevil", "/fallback"],
    ["", "/fallback"],
    [null, "/fallback"],
    // Dot segments that normalise to another host.
    ["/.//evil.com", "/fallback"],
    ["/..//evil.com", "/fallback"],
    ["/a/..//evil.com", "/fallback"],
    ["/%2e//evil.com", "/fallback"],
    ["/a/b/../c?x=1", "/a/c?x=1"],
    [`/${"a".repeat(3000)}`, "/fallback"],
  ])("%s goes to %s", (target, expected) => {
    expect(safeRedirectPath(target, "/fallback")).toBe(expected);
  });

  it.each(HOSTILE_REDIRECT_CASES)("keeps %s on the site", (_label, target) => {
    const result = safeRedirectPath(target, "/fallback");
    expect(staysOnSite(result, "https://qoda.test")).toBe(true);
    // Whatever passes is already in its normalised form: a browser reads it the same way.
    expect(new URL(result, "https://qoda.test").pathname + new URL(result, "https://qoda.test").search).toBe(result);
  });
});

describe("Ethiopian phone numbers", () => {
  it.each([
    ["+251911234567", "+251911234567"],
    ["251911234567", "+251911234567"],
    ["0911234567", "+251911234567"],
    ["911 23 45 67", "+251911234567"],
    ["+251 11 551 2345", "+251115512345"],
    ["12345", null],
    ["+1 202 555 0100", null],
    ["+2510911234567", null],
  ])("%s is %s", (input, expected) => {
    expect(normalizeEthiopianPhone(input)).toBe(expected);
  });
});

describe("rate limits", () => {
  const limit = RATE_LIMITS.signInFailuresPerAccountAndClient;
  const now = 1_000_000_000;

  it("allow 5 failures in 15 minutes and refuse the 6th until the oldest one ages out", () => {
    const four = [1, 2, 3, 4].map((minutes) => now - minutes * 60_000);
    expect(rateLimitDecision(limit, four, now)).toEqual({ allowed: true });
    const five = [...four, now - 10 * 60_000];
    expect(rateLimitDecision(limit, five, now)).toEqual({ allowed: false, retryAfterMs: 5 * 60_000 });
    expect(waitMessage(5 * 60_000).values.count).toBe(5);
  });

  it("forget attempts older than the window", () => {
    const old = Array.from({ length: 10 }, (_, index) => now - limit.windowMs - index);
    expect(rateLimitDecision(limit, old, now)).toEqual({ allowed: true });
  });
});

describe("passwords", () => {
  it("refuse the most common ones, whatever their case", () => {
    expect(isCommonPassword("password123")).toBe(true);
    expect(isCommonPassword("QWERTY123")).toBe(true);
    expect(isCommonPassword("ethiopia")).toBe(true);
    expect(isCommonPassword("Healthy-Skin-2026")).toBe(false);
  });
});

describe("the sign-up schema", () => {
  const valid = {
    firstName: "Liya",
    lastName: "Mekonnen",
    email: "Liya@Example.com",
    password: "Healthy-Skin-2026",
    confirmPassword: "Healthy-Skin-2026",
    acceptTerms: "on",
    acceptPrivacy: "on",
  };

  it("accepts a complete form and lower-cases the email", () => {
    const submission = parseForm(form(valid), RegisterSchema);
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value.email).toBe("liya@example.com");
  });

  it("reports every problem at once, each as a translation key", () => {
    const submission = parseForm(form({ ...valid, email: "nope", confirmPassword: "different", acceptPrivacy: "" }), RegisterSchema);
    expect(submission.status).toBe("error");
    const errors = submission.reply().error ?? {};
    expect(errors.email).toEqual(["forms.errors.invalidEmail"]);
    expect(errors.confirmPassword).toEqual(["forms.errors.passwordsDontMatch"]);
    expect(errors.acceptTerms).toEqual(["forms.errors.consentRequired"]);
  });
});

describe("the profile schemas", () => {
  it("normalise the phone and refuse a bad one", () => {
    const ok = parseForm(
      form({ intent: "update-profile", firstName: "A", lastName: "B", phone: "0911234567", preferredLanguage: "am" }),
      ProfileSchema,
    );
    expect(ok.status === "success" && ok.value.phone).toBe("+251911234567");
    const bad = parseForm(
      form({ intent: "update-profile", firstName: "A", lastName: "B", phone: "555", preferredLanguage: "am" }),
      ProfileSchema,
    );
    expect(bad.reply().error?.phone).toEqual(["forms.errors.invalidPhone"]);
  });

  it("use the spec's password-change messages", () => {
    const short = parseForm(
      form({ intent: "change-password", currentPassword: "x", newPassword: "abc", confirmPassword: "abc" }),
      ChangePasswordSchema,
    );
    expect(short.reply().error?.newPassword).toEqual(["profile.errors.passwordTooShort"]);
    const mismatch = parseForm(
      form({ intent: "change-password", currentPassword: "x", newPassword: "Fresh-Skin-7", confirmPassword: "Fresh-Skin-8" }),
      ChangePasswordSchema,
    );
    expect(mismatch.reply().error?.confirmPassword).toEqual(["profile.errors.newPasswordsDontMatch"]);
  });
});

describe("the account backoff", () => {
  const now = 1_000_000_000;
  const failures = (count: number, spacingMs = 1_000) => Array.from({ length: count }, (_, index) => now - (count - index) * spacingMs);

  it("lets the first 10 failures from anywhere through, then doubles the wait from 1 second up to 5 minutes", () => {
    expect(accountBackoffDecision(failures(9), now)).toEqual({ allowed: true });
    expect(accountBackoffDecision(failures(10, 100), now)).toEqual({ allowed: false, retryAfterMs: 900 });
    expect(accountBackoffDecision(failures(10, 1_000), now)).toEqual({ allowed: true });
    expect(accountBackoffDecision(failures(12, 100), now)).toEqual({ allowed: false, retryAfterMs: 4_000 - 100 });
    expect(accountBackoffDecision(failures(40, 100), now)).toEqual({ allowed: false, retryAfterMs: ACCOUNT_BACKOFF.maxDelayMs - 100 });
  });

  it("forgets failures older than its window", () => {
    const dayAndAnHourAgo = failures(30, 100).map((time) => time - 25 * 60 * 60_000);
    expect(accountBackoffDecision(dayAndAnHourAgo, now)).toEqual({ allowed: true });
  });

  it("says seconds under a minute and minutes above", () => {
    expect(waitMessage(900)).toEqual({ key: "forms.errors.rateLimitedSeconds", values: { count: 1 } });
    expect(waitMessage(45_000)).toEqual({ key: "forms.errors.rateLimitedSeconds", values: { count: 45 } });
    expect(waitMessage(5 * 60_000)).toEqual({ key: "forms.errors.rateLimited", values: { count: 5 } });
  });
});
