// Business constants of Qoda, one place each. Every screen and rule that states one of these reads it
// from here, so a change is made once. Names carry their unit.

export const PAYMENT_WINDOW_MS = 15 * 60_000;
export const PAYMENT_WINDOW_MINUTES = PAYMENT_WINDOW_MS / 60_000;

/** The promise made to patients: a doctor answers a request within this many minutes. */
export const DOCTOR_RESPONSE_PROMISE_MINUTES = 10;
/** Doctor applicants hear back within this range of business days. */
export const APPLICANT_CONTACT_BUSINESS_DAYS = { min: 2, max: 3 } as const;

export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const MAX_PHOTOS_PER_REQUEST = 10;
/** A patient may have this many requests waiting for a doctor at once. */
export const MAX_WAITING_REQUESTS_PER_PATIENT = 3;
/** A photo may declare at most this many pixels (width × height); more is refused unread. */
export const MAX_PHOTO_PIXELS = 50_000_000;
/** Browsers downscale photos to this long side before upload (which also drops EXIF location). */
export const MAX_PHOTO_LONG_SIDE_PX = 2048;
/** A doctor's picture is redrawn in the browser to this long side before upload (a card shows it small). */
export const DOCTOR_PICTURE_LONG_SIDE_PX = 512;
export const PHOTO_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

export const MAX_LICENCE_BYTES = 10 * 1024 * 1024;
/** The no-JavaScript photo form: a full set of photos and room for the multipart framing. */
export const MAX_UPLOAD_REQUEST_BYTES = MAX_PHOTOS_PER_REQUEST * MAX_PHOTO_BYTES + 1024 * 1024;
/** No request may declare a larger body than the largest upload form: refused before routing. */
export const MAX_REQUEST_BODY_BYTES = Math.max(MAX_UPLOAD_REQUEST_BYTES, MAX_LICENCE_BYTES + 1024 * 1024);
export const LICENCE_CONTENT_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;

export const MAX_TITLE_CHARS = 100;
/** Each part of a doctor's summary (observations, diagnosis, treatment plan). */
export const MAX_SUMMARY_FIELD_CHARS = 4_000;
/** A feedback message. */
export const MAX_FEEDBACK_MESSAGE_CHARS = 2_000;
/** A phone number, Telegram handle or email address given to be contacted about feedback. */
export const MAX_CONTACT_VALUE_CHARS = 200;
/** A chat message may hold this many characters (after hidden characters are cleaned and the ends trimmed). */
export const MAX_CHAT_MESSAGE_CHARS = 4000;
/** Messages one person may send in a consultation per minute: far above typing speed, far below a flood. */
export const MAX_CHAT_MESSAGES_PER_MINUTE = 30;
export const MIN_PASSWORD_CHARS = 6;
export const MIN_EXPERIENCE_YEARS = 0;
export const RATING_MIN = 1;
export const RATING_MAX = 5;

/** "Most recent chat" on the patient dashboard looks back this far. */
export const RECENT_CHAT_WINDOW_MS = 7 * 24 * 60 * 60_000;
/** A declined request stays on the patient's dashboard this long, with why and a way to start again. */
export const DECLINED_SHOWN_ON_DASHBOARD_MS = 7 * 24 * 60 * 60_000;
/** Requests left in `awaiting_assets` this long are deleted with their photos. */
export const DRAFT_LIFETIME_MS = 24 * 60 * 60_000;

export const SESSION_IDLE_TIMEOUT_MS = 60 * 60_000;
export const SESSION_ABSOLUTE_LIFETIME_MS = 7 * 24 * 60 * 60_000;

// Delays the product promises on screen.
export const HOME_AFTER_DOCTOR_REGISTRATION_MS = 3_000;
export const PATIENT_TO_PAYMENT_AFTER_MATCH_MS = 2_000;
export const DOCTOR_TO_CONSULTATION_AFTER_DROPDOWN_ACCEPT_MS = 1_000;
export const DOCTOR_TO_CONSULTATION_AFTER_TOAST_ACCEPT_MS = 500;
export const ACCEPT_CONFIRMATION_SHOWN_MS = 3_000;

/** The request bell shows "99+" above this count. */
const BADGE_MAX_COUNT = 99;
/** Consultation ids are shown to people by their first characters only. */
const CONSULTATION_ID_DISPLAY_CHARS = 8;

// Facts of the terms of service.
export const ESCROW_RELEASE_HOURS = 72;
export const DISPUTE_WINDOW_HOURS = 72;
export const RECORD_RETENTION_YEARS = 1;
export const MIN_AGE_YEARS = 18;

export const SUPPORT_EMAIL = "support@qoda.et";
export const PRIVACY_EMAIL = "privacy@qoda.et";
export const SUPPORT_PHONE = "+251 11 667 0000";
export const SUPPORT_TELEGRAM = "@QodaSupport";

export function formatConsultationId(id: string): string {
  return id.slice(0, CONSULTATION_ID_DISPLAY_CHARS);
}

export function formatBadgeCount(count: number): string {
  return count > BADGE_MAX_COUNT ? `${BADGE_MAX_COUNT}+` : String(count);
}

// One-time links.
export const EMAIL_CONFIRMATION_LINK_LIFETIME_MS = 24 * 60 * 60_000;
export const PASSWORD_RESET_LINK_LIFETIME_MS = 60 * 60_000;
export const INVITE_LINK_LIFETIME_MS = 72 * 60 * 60_000;
/** A sign-in link (for someone whose password attempts must wait): short, as it is a way in by itself. */
export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60_000;
export const SIGN_IN_LINK_LIFETIME_MINUTES = SIGN_IN_LINK_LIFETIME_MS / 60_000;

/** A session's last-seen time is written at most this often, to spare D1 a write per request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;
