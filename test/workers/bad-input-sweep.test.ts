// Issue 19, item 4: every form action, resource route, webhook and room message type of the built app
// is sent bad input (missing and extra fields, 100 KB strings, wrong types, script tags, SQL-looking
// strings, invalid UTF-8, control characters, other users' ids, oversize and mislabelled files, the wrong
// method, a missing or foreign Origin, a body that is not a form). Each answer must be a 4xx (or a form
// shown again) with a clear message, never a 5xx, and the database and the bucket must be as they were.
// A route of the built manifest without a row in CORPUS fails the first test: a new route means deciding
// here how it is probed. ADR 0038 says why it is built this way.
import type { ServerBuild } from "@remix-run/cloudflare";
import { env, SELF } from "cloudflare:test";
import { getServerByName } from "partyserver";
import { beforeAll, describe, expect, it } from "vitest";

import { ConsultationRoomInbound, type LobbyEvent } from "~/realtime/protocol";
import { loadConfig } from "~/server/env.server";
import { sandboxProvider } from "~/server/payments/sandbox.server";
import { signWebhookBody } from "~/server/payments/webhook-signature.server";

// @ts-expect-error: the built server exists once `npm test` has built the app.
import * as built from "../../build/server/index.js";
import type { ConsultationRoom } from "../../party/consultation";
import { Visitor } from "./browser-like";
import { ORIGIN } from "./fixtures";
import { EXE_BYTES, largeJpeg, photoFile } from "./photos";
import { openChatSocket, openLobbySocket } from "./sockets";
import { makeWorld, type World } from "./sweep-world";

type Persona = "anonymous" | "patient" | "newPatient" | "doctor" | "admin";

/** One form of a route: its `intent` (if it has one) and the names of its fields. */
interface Form {
  intent?: string;
  fields: string[];
  /** Fields that carry files: the form is posted as multipart, and gets the file probes. */
  files?: string[];
  /** Id fields and, for each, someone else's id (or one of no record) to swap in. */
  ids?: (world: World) => Record<string, string>;
  /** Where the form is (when not at the entry's address). */
  path?: string;
  /** Probes that are valid input for this form, and why (free text takes any words, stored as typed and shown escaped). */
  valid?: { kinds: string[]; why: string };
}

interface Entry {
  /** Who posts. */
  as: Persona;
  /** The address probed: chosen so that no probe is a valid request (a form without fields is probed where it is refused). */
  path: (world: World) => string;
  forms?: Form[];
  /** The same route for a record of someone else's: the "other users' ids" probe of the address. */
  foreign?: (world: World) => string;
  /** Why a redirect after bad input is right here (otherwise a redirect is taken for acceptance). */
  redirects?: string;
  /** A machine's endpoint (webhook, API stand-in): probed with its own corpus (machineProbes). */
  machine?: true;
}

const NO_ONES_ID = "00000000-0000-4000-8000-000000000000";
const FREE_TEXT = ["script", "sql", "control", "offsite", "invalid UTF-8"];
const profileForms: Form[] = [
  { intent: "update-profile", fields: ["firstName", "lastName", "phone", "preferredLanguage"] },
  {
    intent: "change-password",
    fields: ["newPassword", "confirmPassword"],
    valid: { kinds: FREE_TEXT, why: "a password may be any characters; the same words twice are a new password" },
  },
];
const telegramForms: Form[] = [{ intent: "telegram-new-requests", fields: ["enabled"] }];
const chatForm: Form = {
  intent: "send-message",
  fields: ["text"],
  files: ["image"],
  valid: {
    kinds: [...FREE_TEXT, "wrongType"],
    why: "a chat message is any text (a repeated field is read as its first), stored without control characters, shown escaped",
  },
};

/**
 * The corpus, keyed by route id: every route of the manifest. A route without an action (`forms`
 * absent, not `machine`) is probed only through its loader's address and query.
 */
const CORPUS: Record<string, Entry> = {
  root: { as: "anonymous", path: () => "/" },
  "routes/_index": { as: "anonymous", path: () => "/" },
  "routes/terms": { as: "anonymous", path: () => "/terms" },
  "routes/privacy": { as: "anonymous", path: () => "/privacy" },
  "routes/health": { as: "anonymous", path: () => "/health" },
  "routes/sw[.]js": { as: "anonymous", path: () => "/sw.js" },
  "routes/manifest[.]webmanifest": { as: "anonymous", path: () => "/manifest.webmanifest" },
  "routes/access-denied": { as: "patient", path: () => "/access-denied" },
  "routes/account-issue": { as: "anonymous", path: () => "/account-issue" },
  "routes/$": { as: "anonymous", path: () => "/no-such-page" },
  "routes/register._index": {
    as: "anonymous",
    path: () => "/register?index",
    forms: [{ fields: ["firstName", "lastName", "email", "password", "confirmPassword", "acceptTerms", "acceptPrivacy"] }],
  },
  "routes/login": { as: "anonymous", path: () => "/login", forms: [{ fields: ["email", "password", "redirect"] }] },
  "routes/logout": {
    as: "anonymous",
    path: () => "/logout",
    forms: [],
    redirects: "signing out asks for nothing: any post signs out (here, no one)",
  },
  "routes/auth-callback": { as: "patient", path: () => "/auth-callback" },
  "routes/consent": { as: "newPatient", path: () => "/consent", forms: [{ fields: ["acceptTerms", "acceptPrivacy", "redirect"] }] },
  "routes/auth.confirm": { as: "anonymous", path: () => "/auth/confirm" },
  "routes/auth.resend": { as: "anonymous", path: () => "/auth/resend", forms: [{ fields: ["email"] }] },
  "routes/forgot-password": { as: "anonymous", path: () => "/forgot-password", forms: [{ fields: ["email"] }] },
  "routes/sign-in-link": { as: "anonymous", path: () => "/sign-in-link", forms: [{ fields: ["email", "token"] }] },
  "routes/reset-password": {
    as: "anonymous",
    path: () => "/reset-password?token=no-such-token",
    forms: [{ fields: ["token", "password", "confirmPassword"] }],
  },
  "routes/invite": {
    as: "anonymous",
    path: () => "/invite?token=no-such-token",
    forms: [{ fields: ["token", "password", "confirmPassword"] }],
  },
  "routes/auth.google": {
    as: "anonymous",
    path: () => "/auth/google",
    forms: [{ fields: ["redirect"] }],
    redirects: "any post starts Google sign-in; the address it returns to is checked (never another site's)",
  },
  "routes/auth.google.callback": { as: "anonymous", path: () => "/auth/google/callback" },
  "routes/dev.google.authorize": {
    as: "anonymous",
    path: () => "/dev/google/authorize",
    forms: [{ fields: ["response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "state", "sub"] }],
  },
  "routes/dev.google.token": {
    as: "anonymous",
    path: () => "/dev/google/token",
    forms: [{ fields: ["grant_type", "code", "redirect_uri", "code_verifier", "client_id", "client_secret"] }],
  },
  "routes/dev.google.userinfo": { as: "anonymous", path: () => "/dev/google/userinfo" },
  "routes/dev.outbox": { as: "anonymous", path: () => "/dev/outbox" },
  "routes/dev.payments._index": { as: "anonymous", path: () => "/dev/payments?index", forms: [{ fields: ["switch", "setting"] }] },
  "routes/dev.payments.checkout.$txRef": {
    as: "anonymous",
    path: (w) => `/dev/payments/checkout/${w.txRef}`,
    forms: [{ fields: ["outcome"] }],
  },
  "routes/dev.telegram.start": {
    as: "anonymous",
    path: () => "/dev/telegram/start",
    forms: [
      { intent: "start", fields: ["chatId", "payload"] },
      { intent: "stop", fields: ["chatId"] },
      { intent: "block", fields: ["chatId"] },
    ],
  },
  "routes/dev.telegram.$bot.$method": { as: "anonymous", path: () => "/dev/telegram/bot0:wrong/sendMessage", machine: true },
  "routes/patient": { as: "patient", path: () => "/patient" },
  "routes/patient._index": { as: "patient", path: () => "/patient" },
  "routes/patient.dashboard": { as: "patient", path: () => "/patient/dashboard" },
  "routes/patient.profile": {
    as: "patient",
    path: () => "/patient/profile",
    // Closing the account takes only the word asked for (CLOSE or ይዘጋ), which no probe sends.
    forms: [...profileForms, { intent: "close-account", fields: ["confirm"] }],
  },
  "routes/patient.profile_.export": { as: "patient", path: () => "/patient/profile/export" },
  "routes/patient.profile_.telegram": { as: "patient", path: () => "/patient/profile/telegram", forms: telegramForms },
  "routes/doctor": { as: "doctor", path: () => "/doctor" },
  "routes/doctor._index": { as: "doctor", path: () => "/doctor" },
  "routes/doctor.dashboard": { as: "doctor", path: () => "/doctor/dashboard" },
  "routes/doctor.profile": { as: "doctor", path: () => "/doctor/profile", forms: profileForms },
  "routes/doctor.profile_.payout": {
    as: "doctor",
    path: () => "/doctor/profile/payout",
    forms: [{ intent: "payout-account", fields: ["bankCode", "accountName", "accountNumber"] }],
  },
  "routes/doctor.profile_.telegram": { as: "doctor", path: () => "/doctor/profile/telegram", forms: telegramForms },
  "routes/doctor.profile_.card": {
    as: "doctor",
    path: () => "/doctor/profile/card",
    forms: [
      { intent: "upload-picture", fields: [], files: ["picture"] },
      { intent: "save-languages", fields: ["languages"] },
    ],
  },
  "routes/doctor.profile_.picture": { as: "doctor", path: () => "/doctor/profile/picture" },
  "routes/admin": { as: "admin", path: () => "/admin" },
  "routes/admin._index": { as: "admin", path: () => "/admin" },
  "routes/consultations": { as: "patient", path: () => "/consultations" },
  "routes/files.$fileId": { as: "patient", path: () => `/files/${NO_ONES_ID}` },
  "routes/patient.new-consultation": {
    as: "patient",
    path: () => "/patient/new-consultation?step=2",
    forms: [
      { intent: "upload-photos", fields: ["photoKind", "bodyArea", "draftId"], files: ["photo"], path: "/patient/new-consultation" },
      {
        intent: "submit",
        fields: ["chiefComplaint", "ageYears", "sex", "bodyAreas", "durationAmount", "durationUnit", "symptoms", "priority", "doctorCode"],
        ids: (w) => ({ draftId: w.othersUnderWay.id }),
      },
      {
        intent: "remove-photo",
        fields: ["draftId", "photoId"],
        ids: (w) => ({ draftId: w.othersUnderWay.id, photoId: w.othersUnderWay.id }),
        path: "/patient/new-consultation",
      },
    ],
  },
  "routes/patient.new-consultation.photos": {
    as: "patient",
    path: () => "/patient/new-consultation/photos",
    forms: [
      { fields: ["draftId", "photoKind", "bodyArea"], files: ["photo"], ids: (w) => ({ draftId: w.othersUnderWay.id }) },
      { intent: "describe-photo", fields: ["draftId", "photoId", "photoKind", "bodyArea"], ids: (w) => ({ draftId: w.othersUnderWay.id }) },
    ],
  },
  "routes/patient.consultations": { as: "patient", path: () => "/patient/consultations" },
  "routes/patient.consultation.$id": {
    as: "patient",
    path: (w) => `/patient/consultation/${w.underWay.id}`,
    foreign: (w) => `/patient/consultation/${w.othersUnderWay.id}`,
    forms: [chatForm, { intent: "open-dispute", fields: ["reason", "words"] }, { intent: "delete-photos", fields: ["photoId"] }],
  },
  "routes/patient.payment.$id": {
    as: "patient",
    path: (w) => `/patient/payment/${w.awaitingPayment.id}`,
    foreign: (w) => `/patient/payment/${w.othersUnderWay.id}`,
    forms: [{ intent: "pay", fields: ["txRef"], ids: (w) => ({ txRef: w.othersTxRef }) }],
  },
  "routes/patient.payment.$id_.receipt": { as: "patient", path: (w) => `/patient/payment/${w.awaitingPayment.id}/receipt` },
  "routes/doctor.consultations": { as: "doctor", path: () => "/doctor/consultations" },
  "routes/doctor.patients": { as: "doctor", path: () => "/doctor/patients" },
  "routes/doctor.earnings": { as: "doctor", path: () => "/doctor/earnings" },
  "routes/doctor.consultation.$id_.summary": { as: "doctor", path: (w) => `/doctor/consultation/${w.ended.id}/summary` },
  "routes/patient.consultation.$id_.summary": { as: "patient", path: (w) => `/patient/consultation/${w.ended.id}/summary` },
  "routes/patient.payment.$id_.doctor-picture": { as: "patient", path: (w) => `/patient/payment/${w.awaitingPayment.id}/doctor-picture` },
  "routes/patient.consultation.$id_.timeline": { as: "patient", path: (w) => `/patient/consultation/${w.underWay.id}/timeline` },
  "routes/admin.consultations.$id_.summary": { as: "admin", path: (w) => `/admin/consultations/${w.ended.id}/summary` },
  "routes/doctor.earnings[.]csv": { as: "doctor", path: () => "/doctor/earnings.csv" },
  "routes/doctor.consultation.$id": {
    as: "doctor",
    path: (w) => `/doctor/consultation/${w.underWay.id}`,
    foreign: (w) => `/doctor/consultation/${w.othersUnderWay.id}`,
    forms: [
      chatForm,
      {
        intent: "save-summary",
        fields: ["observations", "diagnosis", "treatmentPlan", "newPhotosInDays"],
        valid: { kinds: ["missing fields", "extra fields"], why: "a summary is saved as it is written, empty at first" },
      },
      { intent: "end-consultation", fields: ["observations", "diagnosis", "treatmentPlan", "newPhotosInDays"] },
      { intent: "decline", fields: ["reason", "note"] },
      { intent: "answer-dispute", fields: ["disputeId", "answer"], ids: (w) => ({ disputeId: w.othersUnderWay.id }) },
    ],
  },
  "routes/consultation.$id.accept": {
    as: "doctor",
    // Someone else's consultation, under way: the link is refused, whatever is posted.
    path: (w) => `/consultation/${w.othersUnderWay.id}/accept`,
    forms: [],
  },
  "routes/patient.feedback.$id": {
    as: "patient",
    path: (w) => `/patient/feedback/${w.ended.id}`,
    foreign: (w) => `/patient/feedback/${w.othersUnderWay.id}`,
    forms: [
      { fields: ["rating", "message", "allowContact", "contactMethod", "contactValue"] },
      { intent: "open-dispute", fields: ["reason", "words"] },
    ],
  },
  "routes/doctor.thank-you": { as: "doctor", path: () => "/doctor/thank-you" },
  "routes/notifications": {
    as: "patient",
    path: () => "/notifications",
    forms: [{ intent: "open", fields: ["id"], ids: (w) => ({ id: w.othersUnderWay.id }) }],
  },
  "routes/payments.webhook": { as: "anonymous", path: () => "/payments/webhook", machine: true },
  "routes/telegram.webhook": { as: "anonymous", path: () => "/telegram/webhook", machine: true },
  "routes/payments.return.$txRef": { as: "patient", path: (w) => `/payments/return/${w.txRef}` },
  "routes/consultation.$id.chat-image": {
    as: "patient",
    path: (w) => `/consultation/${w.underWay.id}/chat-image`,
    foreign: (w) => `/consultation/${w.othersUnderWay.id}/chat-image`,
    forms: [{ fields: ["clientId"], files: ["image"] }],
  },
  "routes/admin.dashboard": {
    as: "admin",
    path: () => "/admin/dashboard",
    forms: [
      {
        intent: "add-doctor",
        fields: ["firstName", "lastName", "email", "phone", "specialty", "licenceNumber", "experienceYears", "licenceExpiresOn"],
        files: ["licenceFile"],
      },
      { intent: "add-admin", fields: ["firstName", "lastName", "email", "phone"] },
    ],
  },
  "routes/admin.profile": { as: "admin", path: () => "/admin/profile", forms: profileForms },
  "routes/admin.doctors._index": { as: "admin", path: () => "/admin/doctors" },
  "routes/admin.patients": { as: "admin", path: () => "/admin/patients" },
  "routes/admin.doctors.$id": {
    as: "admin",
    path: (w) => `/admin/doctors/${w.doctor.userId}`,
    foreign: (w) => `/admin/doctors/${w.patient.userId}`,
    forms: [{ intent: "update-doctor", fields: ["firstName", "lastName", "email", "phone", "specialty"], files: ["picture"] }],
  },
  "routes/admin.doctors.$id_.picture": { as: "admin", path: (w) => `/admin/doctors/${w.doctor.userId}/picture` },
  "routes/admin.doctors.$id_.licence": { as: "admin", path: (w) => `/admin/doctors/${w.doctor.userId}/licence` },
  "routes/admin.overview": { as: "admin", path: () => "/admin/overview" },
  "routes/admin.feedbacks": { as: "admin", path: () => "/admin/feedbacks" },
  "routes/admin.audit": { as: "admin", path: () => "/admin/audit" },
  "routes/admin.payments": {
    as: "admin",
    path: () => "/admin/payments",
    forms: [{ intent: "mark-refunded", fields: ["paymentId", "note"], ids: (w) => ({ paymentId: w.othersUnderWay.id }) }],
  },
  "routes/admin.finance.disputes": {
    as: "admin",
    path: () => "/admin/finance/disputes",
    forms: [
      {
        intent: "resolve-dispute",
        fields: ["disputeId", "resolution", "refundBirr", "note"],
        ids: (w) => ({ disputeId: w.othersUnderWay.id }),
      },
    ],
  },
  "routes/admin.finance.reconciliation": {
    as: "admin",
    path: () => "/admin/finance/reconciliation",
    forms: [{ intent: "resolve-difference", fields: ["differenceId", "note"], ids: (w) => ({ differenceId: w.othersUnderWay.id }) }],
  },
  "routes/admin.finance._index": {
    as: "admin",
    path: () => "/admin/finance?index",
    forms: [{ intent: "retry-refund", fields: ["refundId"], ids: (w) => ({ refundId: w.othersUnderWay.id }) }],
  },
  "routes/admin.finance.journal[.]csv": { as: "admin", path: () => "/admin/finance/journal.csv" },
  "routes/admin.consultations.$id": {
    as: "admin",
    path: (w) => `/admin/consultations/${w.underWay.id}`,
    forms: [
      {
        fields: ["reason"],
        valid: {
          kinds: [...FREE_TEXT, "wrongType"],
          why: "the admin's reason is any words (a repeated field is read as its first), written to the audit log",
        },
      },
      { intent: "cancel-paid", fields: ["note"] },
    ],
  },
  "routes/register.doctor": {
    as: "anonymous",
    path: () => "/register/doctor",
    forms: [{ fields: ["fullName", "phone", "email", "cityCountry", "experienceYears"], files: ["licence"] }],
  },
  "routes/feedback": {
    as: "anonymous",
    // `website` is the honeypot: filled in, the form pretends to succeed (bots are not told), so it is left out.
    path: () => "/feedback",
    forms: [{ fields: ["name", "email", "subject", "message"] }],
  },
  "routes/admin.doctor-registrations": {
    as: "admin",
    path: () => "/admin/doctor-registrations",
    forms: [
      { intent: "approve", fields: ["id"], ids: () => ({ id: NO_ONES_ID }) },
      { intent: "reject", fields: ["id", "reason"], ids: () => ({ id: NO_ONES_ID }) },
    ],
  },
  "routes/admin.doctor-registrations.$id.licence": {
    as: "admin",
    path: () => `/admin/doctor-registrations/${NO_ONES_ID}/licence`,
  },
  "routes/admin.messages": {
    as: "admin",
    path: () => "/admin/messages",
    forms: [{ intent: "mark-read", fields: ["id"], ids: () => ({ id: NO_ONES_ID }) }],
  },
  "routes/admin.mail": {
    as: "admin",
    path: () => "/admin/mail",
    forms: [{ intent: "retry", fields: ["id"], ids: () => ({ id: NO_ONES_ID }) }],
  },
};

// The corpus of bad values: one probe per kind, every field of a form given the same bad value.
const HUGE = "x".repeat(100_000);
const SCRIPT = '<script>alert("qoda")</script>';
const BAD_VALUES: Record<string, string | string[]> = {
  huge: HUGE,
  script: SCRIPT,
  sql: "' OR 1=1; DROP TABLE users; --",
  control: "\u0000\u0007\u001b[2J\r\n\u202e\u2066",
  // Another site's address, where a field names a page to go back to.
  offsite: "//evil.example/",
  // A list where one value is expected, and values of the wrong type.
  wrongType: ["-1e309", "[object Object]"],
};
/** Bytes that are not UTF-8 (a lone continuation byte, an overlong form, a truncated sequence). */
const INVALID_UTF8 = [0xff, 0xfe, 0xc0, 0xaf, 0xe2, 0x82];
const EXTRA_FIELDS = { role: "admin", isAdmin: "true", __proto__: "polluted", "constructor[prototype]": "x" };

interface Probe {
  name: string;
  send: (visitor: Visitor) => Promise<Response>;
}

function formBody(fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(name, item);
  return body;
}

function multipartBody(fields: Record<string, string | string[]>, files: Record<string, File> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) form.append(name, item);
  for (const [name, file] of Object.entries(files)) form.append(name, file);
  return form;
}

/** Every field set to `value`, the form's intent kept. */
const filled = (form: Form, value: string | string[]) => ({
  ...(form.intent ? { intent: form.intent } : {}),
  ...Object.fromEntries(form.fields.map((field) => [field, value])),
});

function formProbes(entryPath: string, form: Form, world: World): Probe[] {
  const label = form.intent ?? "form";
  const path = form.path ?? entryPath;
  const post = (fields: Record<string, string | string[]>, files?: Record<string, File>) => (visitor: Visitor) =>
    form.files ? visitor.postMultipart(path, multipartBody(fields, files)) : visitor.post(path, fields);
  const probes: Probe[] = [
    { name: `${label}: missing fields`, send: post(form.intent ? { intent: form.intent } : {}) },
    { name: `${label}: extra fields`, send: post({ ...(form.intent ? { intent: form.intent } : {}), ...EXTRA_FIELDS }) },
    ...Object.entries(BAD_VALUES).map(([kind, value]) => ({ name: `${label}: ${kind}`, send: post(filled(form, value)) })),
    {
      name: `${label}: invalid UTF-8`,
      send: (visitor: Visitor) => {
        const parts = [form.intent ? [...new TextEncoder().encode(`intent=${form.intent}`)] : []];
        for (const field of form.fields) parts.push([...new TextEncoder().encode(`${field}=`), ...INVALID_UTF8]);
        const body = new Uint8Array(parts.filter((part) => part.length).flatMap((part, index) => (index ? [0x26, ...part] : part)));
        return visitor.fetch(path, {
          method: "POST",
          body,
          headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded; charset=utf-8" },
        });
      },
    },
  ];
  if (form.ids) probes.push({ name: `${label}: other users' ids`, send: post({ ...filled(form, "1"), ...form.ids(world) }) });
  for (const field of form.files ?? []) {
    const fields = filled(form, "1");
    probes.push(
      { name: `${label}: oversize file`, send: post(fields, { [field]: largeJpeg(12 * 1024 * 1024) }) },
      { name: `${label}: mislabelled file`, send: post(fields, { [field]: photoFile(EXE_BYTES, "photo.jpg", "image/jpeg") }) },
      { name: `${label}: empty file`, send: post(fields, { [field]: photoFile(new Uint8Array(), "empty.png") }) },
    );
  }
  const valid = new Set((form.valid?.kinds ?? []).map((kind) => `${label}: ${kind}`));
  return probes.filter((probe) => !valid.has(probe.name));
}

/** What every route with an action gets, whatever its forms: the wrong method, origins, bodies that are not forms. */
function requestProbes(path: string, entry: Entry): Probe[] {
  const first = entry.forms?.[0];
  const fields = first ? filled(first, "1") : {};
  return [
    { name: "no fields at all", send: (visitor) => visitor.post(path, {}) },
    { name: "an intent of no form", send: (visitor) => visitor.post(path, { intent: SCRIPT }) },
    {
      name: "wrong method (PUT)",
      send: (visitor) => visitor.fetch(path, { method: "PUT", body: formBody(fields), headers: { Origin: ORIGIN } }),
    },
    { name: "wrong method (DELETE)", send: (visitor) => visitor.fetch(path, { method: "DELETE", headers: { Origin: ORIGIN } }) },
    {
      // Without a session, no Origin is a machine's post (same-origin.server.ts): only a signed-in one is refused for it.
      name: "missing Origin",
      send: (visitor) =>
        visitor.fetch(path, {
          method: "POST",
          body: formBody(entry.as === "anonymous" ? {} : fields),
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        }),
    },
    { name: "foreign Origin", send: (visitor) => visitor.post(path, fields, { Origin: "https://evil.example" }) },
    {
      name: "a JSON body",
      send: (visitor) =>
        visitor.fetch(path, {
          method: "POST",
          body: JSON.stringify(fields),
          headers: { Origin: ORIGIN, "Content-Type": "application/json" },
        }),
    },
    {
      name: "a form type over bytes that are no form",
      send: (visitor) =>
        visitor.fetch(path, {
          method: "POST",
          body: new Uint8Array(INVALID_UTF8),
          headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
        }),
    },
    {
      name: "multipart without its boundary",
      send: (visitor) =>
        visitor.fetch(path, {
          method: "POST",
          body: "--x\r\nnot a part\r\n",
          headers: { Origin: ORIGIN, "Content-Type": "multipart/form-data; boundary=zzz" },
        }),
    },
  ];
}

const jsonPost =
  (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  (visitor: Visitor) =>
    visitor.fetch(path, { method: "POST", body, headers: { "Content-Type": "application/json", ...headers } });

/** The machines' endpoints: what a forger (no secret or signature) and a broken sender would send. */
function machineProbes(routeId: string, path: string, world: World): Probe[] {
  const bot = loadConfig(env).telegram!;
  const junkBodies: Record<string, string> = {
    "missing fields": "{}",
    "extra fields": JSON.stringify({ ...EXTRA_FIELDS, tx_ref: "qoda-no-such" }),
    "wrong types": JSON.stringify({ tx_ref: 42, status: ["success"], update_id: "one", message: 5, chat_id: { id: 1 }, text: 7 }),
    "script tags": JSON.stringify({ tx_ref: SCRIPT, status: SCRIPT, message: { text: SCRIPT }, chat_id: SCRIPT, text: SCRIPT }),
    "SQL-looking strings": JSON.stringify({ tx_ref: BAD_VALUES.sql, status: "success", chat_id: BAD_VALUES.sql, text: BAD_VALUES.sql }),
    "control characters": JSON.stringify({
      tx_ref: BAD_VALUES.control,
      status: "success",
      chat_id: BAD_VALUES.control,
      text: BAD_VALUES.control,
    }),
    "not JSON": "tx_ref=1&status=success",
    "100 KB": JSON.stringify({ tx_ref: HUGE, chat_id: HUGE, text: HUGE }),
  };
  const common: Probe[] = [
    { name: "wrong method (PUT)", send: (visitor) => visitor.fetch(path, { method: "PUT", body: "{}" }) },
    { name: "wrong method (GET)", send: (visitor) => visitor.get(path) },
    { name: "foreign Origin", send: jsonPost(path, "{}", { Origin: "https://evil.example" }) },
    { name: "invalid UTF-8", send: jsonPost(path, new Uint8Array(INVALID_UTF8)) },
  ];
  if (routeId === "routes/payments.webhook") {
    const signed = (name: string, body: string): Probe => ({
      name: `signed, ${name}`,
      send: async () => {
        const secret = sandboxProvider(loadConfig(env), env, ORIGIN).webhookSecret;
        return SELF.fetch(`${ORIGIN}${path}`, {
          method: "POST",
          body,
          headers: { "Content-Type": "application/json", "x-chapa-signature": await signWebhookBody(secret, body) },
        });
      },
    });
    return [
      ...common,
      ...Object.entries(junkBodies).map(([name, body]) => ({ name: `unsigned, ${name}`, send: jsonPost(path, body) })),
      {
        name: "a forged signature",
        send: jsonPost(path, JSON.stringify({ tx_ref: world.txRef, status: "success" }), { "x-chapa-signature": "0".repeat(64) }),
      },
      ...Object.entries(junkBodies).map(([name, body]) => signed(name, body)),
      signed("invalid UTF-8", new TextDecoder().decode(new Uint8Array(INVALID_UTF8))),
    ];
  }
  if (routeId === "routes/telegram.webhook") {
    const withSecret = { "X-Telegram-Bot-Api-Secret-Token": bot.webhookSecret };
    return [
      ...common,
      { name: "no secret", send: jsonPost(path, JSON.stringify({ update_id: 1 })) },
      { name: "a wrong secret", send: jsonPost(path, JSON.stringify({ update_id: 1 }), { "X-Telegram-Bot-Api-Secret-Token": "guess" }) },
      ...Object.entries(junkBodies).map(([name, body]) => ({ name: `with the secret, ${name}`, send: jsonPost(path, body, withSecret) })),
      { name: "with the secret, invalid UTF-8", send: jsonPost(path, new Uint8Array(INVALID_UTF8), withSecret) },
    ];
  }
  // The Bot API stand-in: a wrong token, and junk to the right one.
  const rightPath = `/dev/telegram/bot${bot.token}/sendMessage`;
  return [
    ...common,
    ...Object.entries(junkBodies).map(([name, body]) => ({ name: `wrong token, ${name}`, send: jsonPost(path, body) })),
    ...Object.entries(junkBodies).map(([name, body]) => ({ name: `right token, ${name}`, send: jsonPost(rightPath, body) })),
    { name: "right token, unknown method", send: jsonPost(`/dev/telegram/bot${bot.token}/${encodeURIComponent(SCRIPT)}`, "{}") },
  ];
}

/** Bad values in the address and the query of a page or resource (what a loader reads). */
function loaderProbes(path: string, entry: Entry, world: World): Probe[] {
  const QUERY_NAMES = [
    "q",
    "page",
    "tab",
    "status",
    "token",
    "email",
    "redirect",
    "step",
    "id",
    "draft",
    "from",
    "start",
    "confirm",
    "both",
    "unread",
    "reject",
  ];
  const withQuery = (value: string | string[]) => {
    const url = new URL(path, ORIGIN);
    for (const name of QUERY_NAMES) for (const item of [value].flat()) url.searchParams.append(name, item);
    return `${url.pathname}${url.search}`;
  };
  const probes: Probe[] = Object.entries(BAD_VALUES)
    // An address of 100 KB is refused before the Worker; its query gets 4 KB of the same.
    .map(([kind, value]) => ({
      name: `GET, query ${kind}`,
      send: (visitor: Visitor) => visitor.get(withQuery(kind === "huge" ? HUGE.slice(0, 4000) : value)),
    }));
  probes.push({
    name: "GET, query of invalid UTF-8",
    send: (visitor) =>
      visitor.get(`${path}${path.includes("?") ? "&" : "?"}${QUERY_NAMES.map((name) => `${name}=%FF%FE%C0%AF`).join("&")}`),
  });
  const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|qoda-[0-9a-f-]{36}/.exec(path)?.[0];
  if (id) {
    for (const [kind, value] of Object.entries({
      script: SCRIPT,
      sql: BAD_VALUES.sql as string,
      control: "%00%0D%0A%E2%80%AE",
      utf8: "%FF%FE",
      long: "a".repeat(4000),
    }))
      probes.push({
        name: `GET, id ${kind}`,
        send: (visitor) => visitor.get(path.replace(id, kind === "control" || kind === "utf8" ? value : encodeURIComponent(value))),
      });
  }
  if (entry.foreign) probes.push({ name: "GET, someone else's record", send: (visitor) => visitor.get(entry.foreign!(world)) });
  return probes;
}

const CLEAR_HTML_MESSAGE = [/role="alert"/, /aria-invalid="true"/, /class="text-sm text-error"/];
/** The status page (root ErrorBoundary) a 4xx shows: its heading and its words. */
const STATUS_PAGE = /<h1 class="text-2xl font-bold">[^<]+<\/h1><p class="text-base-content\/80">[^<]+<\/p>/;

/** What is wrong with `response` as an answer to bad input, or null. */
async function fault(response: Response, entry: Entry, visitor: Visitor, isPost: boolean): Promise<string | null> {
  const body = await response.text();
  if (response.status >= 500) return `answered ${response.status}: ${body.slice(0, 200)}`;
  if (/Unexpected Server Error|\n\s+at .+:\d+:\d+/.test(body)) return `a server error or stack trace in a ${response.status}`;
  if (body.includes(SCRIPT)) return "the script tag came back unescaped";
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get("Location") ?? "";
    if (/evil\.example|<script|%3Cscript/i.test(location)) return `redirected where the probe said: ${location.slice(0, 120)}`;
    if (!isPost || entry.redirects) return null;
    // A redirect is a refusal only when the page it leads to says what went wrong.
    const { html, response: page } = await visitor.follow(await visitor.get(response.headers.get("Location")!));
    if (page.status < 500 && CLEAR_HTML_MESSAGE.some((pattern) => pattern.test(html))) return null;
    return `redirected to ${location} with no error shown (accepted?)`;
  }
  if (!isPost) return null;
  if (response.status < 400 && entry.machine) return `a machine's endpoint answered ${response.status} ${body.slice(0, 80)}`;
  if (response.status < 400 && response.status !== 200) return `answered ${response.status}`;
  if (!body.trim()) return `an empty ${response.status}`;
  if ((response.headers.get("Content-Type") ?? "").includes("text/html")) {
    const clear = CLEAR_HTML_MESSAGE.some((pattern) => pattern.test(body)) || (response.status >= 400 && STATUS_PAGE.test(body));
    if (!clear) return `a ${response.status} page with no error shown`;
  } else if (response.status === 200) {
    return `a 200 ${response.headers.get("Content-Type")} answer to bad input: ${body.slice(0, 120)}`;
  }
  return null;
}

/**
 * Every table must read the same after the probes, but for rows the audit log gains by design: a doctor's
 * look at a consultation (a GET with a junk query still shows the doctor the page, and each look at a
 * patient's record is logged), a patient's download of their own data (a junk query still downloads
 * it, and each download is logged) and a refused sign-in (logged for the admins). The log only grows,
 * and only by these actions. Sessions are compared without their last-seen time, which each request moves.
 */
const AUDITED_REFUSALS_AND_LOOKS = new Set(["consultation.viewed", "file.viewed", "privacy.data_exported", "auth.sign_in.failure"]);

/** The platform as the probes found it: each table and the bucket as one string, and how far the audit log went. */
interface Snapshot {
  tables: Record<string, string>;
  auditLogUpTo: number;
}

/**
 * Each table's rows, each as one string of its quoted values made and sorted by SQLite, then joined here
 * (a whole table joined by SQLite can pass D1's 2 MB string limit): the shared world holds every earlier
 * file's rows, and copying them out as objects to stringify twice per route was a third of the sweep's
 * time. The audit log is read up to `auditLogUpTo`, the rows it had before the probes.
 */
async function tableRows(auditLogUpTo?: number): Promise<Record<string, string>> {
  const { results: columns } = await env.DB.prepare(
    `SELECT m.name AS tableName, c.name AS columnName FROM sqlite_master m, pragma_table_info(m.name) c
     WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%' AND m.name != 'd1_migrations'
     ORDER BY m.name, c.cid`,
  ).all<{ tableName: string; columnName: string }>();
  const columnsOf = new Map<string, string[]>();
  for (const { tableName, columnName } of columns) columnsOf.set(tableName, [...(columnsOf.get(tableName) ?? []), columnName]);
  const names = [...columnsOf.keys()];
  const read = await env.DB.batch<{ r: string }>(
    names.map((name) => {
      // A session's last-seen time moves with each request it makes: its id, user and expiry must not.
      const kept = name === "sessions" ? ["id", "user_id", "expires_at"] : columnsOf.get(name)!;
      const row = kept.map((column) => `quote("${column}")`).join(" || char(31) || ");
      const upTo = name === "audit_log" && auditLogUpTo !== undefined ? `WHERE rowid <= ${auditLogUpTo}` : "";
      return env.DB.prepare(`SELECT ${row} AS r FROM "${name}" ${upTo} ORDER BY r`);
    }),
  );
  return Object.fromEntries(names.map((name, index) => [name, read[index]!.results.map((row) => row.r).join("\u001e")]));
}

async function bucketKeys(): Promise<string> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.FILES.list({ cursor });
    keys.push(...page.objects.map((object) => `${object.key}:${object.size}:${object.etag}`));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return JSON.stringify(keys.sort());
}

async function snapshot(): Promise<Snapshot> {
  const upTo = await env.DB.prepare("SELECT coalesce(max(rowid), 0) AS upTo FROM audit_log").first<{ upTo: number }>();
  return { tables: { ...(await tableRows(upTo!.upTo)), "R2 bucket": await bucketKeys() }, auditLogUpTo: upTo!.upTo };
}

/**
 * What differs from `before`: every table must read the same, and the audit log keep every row it had
 * and gain only looks and refused sign-ins.
 */
async function changedSince(before: Snapshot): Promise<string[]> {
  const after: Record<string, string> = { ...(await tableRows(before.auditLogUpTo)), "R2 bucket": await bucketKeys() };
  const { results: added } = await env.DB.prepare("SELECT DISTINCT action FROM audit_log WHERE rowid > ?")
    .bind(before.auditLogUpTo)
    .all<{ action: string }>();
  const changed = [...new Set([...Object.keys(before.tables), ...Object.keys(after)])].filter(
    (name) => before.tables[name] !== after[name],
  );
  if (added.some((row) => !AUDITED_REFUSALS_AND_LOOKS.has(row.action))) changed.push("audit_log");
  return [...new Set(changed)].sort();
}

const routes = (built as unknown as ServerBuild).routes;
let world: World;
let people: Record<Persona, string | undefined>;

beforeAll(async () => {
  world = await makeWorld();
  people = {
    anonymous: undefined,
    patient: world.patient.cookie,
    newPatient: world.newPatient.cookie,
    doctor: world.doctor.cookie,
    admin: world.admin.cookie,
  };
});

/** Runs `probes` a few at a time, each from a visitor of its own (so one's rate limit is not another's). */
async function run(probes: Probe[], entry: Entry, isPost: (probe: Probe) => boolean) {
  const faults: string[] = [];
  for (let start = 0; start < probes.length; start += 4) {
    await Promise.all(
      probes.slice(start, start + 4).map(async (probe) => {
        const visitor = new Visitor(people[entry.as]);
        const problem = await fault(await probe.send(visitor), entry, visitor, isPost(probe));
        if (problem) faults.push(`${probe.name}: ${problem}`);
      }),
    );
  }
  return faults.sort();
}

describe("the bad-input sweep", () => {
  const routeIds = Object.keys(routes);

  it("has a corpus entry for every route, and forms for every action", () => {
    expect(
      routeIds.filter((id) => !CORPUS[id]),
      "routes missing from CORPUS",
    ).toEqual([]);
    expect(
      Object.keys(CORPUS).filter((id) => !routes[id]),
      "CORPUS entries for routes that no longer exist",
    ).toEqual([]);
    const withAction = routeIds.filter((id) => routes[id]!.module.action);
    expect(
      withAction.filter((id) => !CORPUS[id]!.forms && !CORPUS[id]!.machine),
      "actions without forms in CORPUS",
    ).toEqual([]);
    expect(
      Object.keys(CORPUS).filter((id) => (CORPUS[id]!.forms || CORPUS[id]!.machine) && !routes[id]?.module.action),
      "forms for routes without an action",
    ).toEqual([]);
  });

  it.each(routeIds)(
    "%s refuses bad input clearly and changes nothing",
    async (routeId) => {
      const entry = CORPUS[routeId]!;
      const path = entry.path(world);
      const posts = entry.machine
        ? machineProbes(routeId, path, world)
        : entry.forms
          ? [...requestProbes(path, entry), ...entry.forms.flatMap((form) => formProbes(path, form, world))]
          : [];
      if (entry.foreign && entry.forms?.[0]) {
        const foreign = entry.foreign(world);
        posts.push({ name: "someone else's record", send: (visitor) => visitor.post(foreign, filled(entry.forms![0]!, "1")) });
      }
      const gets = entry.machine ? [] : loaderProbes(path, entry, world);
      const before = await snapshot();
      const faults = await run([...posts, ...gets], entry, (probe) => posts.includes(probe));
      expect(faults.join("\n"), `${routeId} at ${path}`).toBe("");
      expect((await changedSince(before)).join(", "), `${routeId}: what the probes changed`).toBe("");
      // Some routes get 60 probes: seconds on a busy two-core machine.
    },
    30_000,
  );
});

/**
 * The rooms' message corpus, keyed by the type a browser may send (ConsultationRoomInbound; the lobby
 * takes none): bad messages of each type, and junk of no type. A type added to the protocol without
 * entries here fails the first test below.
 */
const ROOM_CORPUS: Record<ConsultationRoomInbound["type"] | "no type", unknown[]> = {
  send: [
    { type: "send" },
    { type: "send", clientId: crypto.randomUUID(), text: "", senderRole: "doctor", senderId: "someone-else", id: 1 },
    { type: "send", clientId: crypto.randomUUID(), text: 42 },
    { type: "send", clientId: 5, text: "Hello" },
    { type: "send", clientId: SCRIPT, text: "Hello" },
    { type: "send", clientId: crypto.randomUUID(), text: HUGE },
    { type: "send", clientId: crypto.randomUUID(), text: "\u0000\u0007\u200b\u202e \r\n" },
    { type: "send", clientId: crypto.randomUUID(), text: ["Hello"] },
  ],
  catch_up: [
    { type: "catch_up" },
    { type: "catch_up", afterId: "zero" },
    { type: "catch_up", afterId: 1.5 },
    { type: "catch_up", afterId: BAD_VALUES.sql },
  ],
  "no type": [
    "not json",
    "{",
    HUGE,
    "null",
    "[]",
    JSON.stringify({ type: SCRIPT }),
    JSON.stringify({ type: "status", status: "completed" }),
  ],
};
const ROOM_MESSAGES = Object.values(ROOM_CORPUS).flat();

describe("the bad-input sweep of the rooms", () => {
  it("has corpus entries for every message type a browser may send", () => {
    const types = ConsultationRoomInbound.def.options.map((option) => option.def.shape.type.def.values[0]);
    expect(Object.keys(ROOM_CORPUS).sort()).toEqual([...types, "no type"].sort());
  });

  it("the consultation room drops or refuses every bad message, keeps the socket open and stores nothing", async () => {
    const before = await snapshot();
    const socket = await openChatSocket(world.underWay.id, world.patient.cookie);
    await socket.until((events) => events.some((event) => event.type === "history"));
    for (const message of ROOM_MESSAGES) socket.send(typeof message === "string" ? message : JSON.stringify(message));
    socket.socket.send(new Uint8Array(INVALID_UTF8));
    // The room takes one message at a time: the answer to this catch-up comes after every probe's.
    socket.send({ type: "catch_up", afterId: 0 });
    await socket.until((events) => events.filter((event) => event.type === "history").length === 2);
    expect(socket.events.filter((event) => event.type === "message")).toEqual([]);
    expect(
      socket.events.flatMap((event) => (event.type === "send_refused" ? [event.reason] : [])),
      "texts of nothing and the text too long are refused, telling the sender (the rest is dropped)",
    ).toEqual(["empty", "too_long", "empty"]);
    expect(socket.closeCode()).toBeUndefined();
    const room = (await getServerByName(env.ConsultationRoom, world.underWay.id)) as unknown as DurableObjectStub<ConsultationRoom>;
    expect((await room.chatSnapshot(10_000)).messages).toEqual([]);
    socket.close();
    expect((await changedSince(before)).join(", ")).toBe("");
  });

  it("the rooms refuse a socket from another site, or for someone else's consultation", async () => {
    const upgrade = (path: string, cookie: string, origin?: string) =>
      SELF.fetch(`${ORIGIN}${path}`, { headers: { Upgrade: "websocket", Cookie: cookie, ...(origin ? { Origin: origin } : {}) } });
    for (const [path, cookie, origin] of [
      [`/parties/consultation-room/${world.underWay.id}`, world.patient.cookie, "https://evil.example"],
      [`/parties/consultation-room/${world.underWay.id}`, world.otherPatient.cookie, undefined],
      [`/parties/consultation-room/${encodeURIComponent(SCRIPT)}`, world.patient.cookie, undefined],
      ["/parties/doctors-lobby/main", world.doctor.cookie, "https://evil.example"],
      ["/parties/doctors-lobby/main", world.patient.cookie, undefined],
    ] as const) {
      const response = await upgrade(path, cookie, origin);
      expect(response.webSocket, path).toBeNull();
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect((await response.text()).trim(), path).not.toBe("");
    }
  });

  it("the lobby drops whatever a doctor sends and keeps the socket open", async () => {
    const before = await snapshot();
    const lobby = await openLobbySocket(world.doctor.cookie);
    await lobby.until((events) => events.some((event) => event.type === "queue"));
    for (const message of [...ROOM_MESSAGES, { type: "request_removed", id: world.waiting.id }, { type: "queue", requests: [] }])
      lobby.socket.send(typeof message === "string" ? message : JSON.stringify(message));
    lobby.socket.send(new Uint8Array(INVALID_UTF8));
    // Another doctor joining gets the queue as it was: the lobby took none of it, and kept the first socket.
    const second = await openLobbySocket(world.otherDoctor.cookie);
    await second.until((events) => events.some((event) => event.type === "queue"));
    const queueOf = (events: LobbyEvent[]) => events.find((event) => event.type === "queue");
    expect(queueOf(second.events)).toEqual(queueOf(lobby.events));
    expect(lobby.events.filter((event) => event.type === "request_removed")).toEqual([]);
    expect(lobby.closeCode()).toBeUndefined();
    lobby.close();
    second.close();
    expect((await changedSince(before)).join(", ")).toBe("");
  });
});
