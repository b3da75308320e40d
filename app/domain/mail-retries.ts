// How the outbox retries an email the provider would not take (docs/decisions/0023).

/** Attempts before a message is given up on and shown to admins as failed. */
export const MAX_MAIL_ATTEMPTS = 6;

/** The wait after the nth failed attempt: 1, 4, 16, 64, 256 minutes. */
export const mailRetryDelayMs = (attempts: number) => 60_000 * 4 ** Math.max(0, attempts - 1);
