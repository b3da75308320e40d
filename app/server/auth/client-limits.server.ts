// Rate-limit keys for the account forms, per account and per client (sign-in: sign-in-attempt.server).
import { RATE_LIMITS, type RateLimit } from "~/domain/rate-limits";
import { clientAddress } from "~/server/client-address.server";

export const clientKey = (request: Request) => clientAddress(request) ?? "unknown-client";

export const signUpLimits = (request: Request): Array<[string, RateLimit]> => [[`sign-up:client:${clientKey(request)}`, RATE_LIMITS.signUpsPerClient]];

export const resetLimits = (request: Request, email: string): Array<[string, RateLimit]> => [
  [`reset:account:${email}`, RATE_LIMITS.resetRequestsPerAccount],
  [`reset:client:${clientKey(request)}`, RATE_LIMITS.resetRequestsPerClient],
];

export const resendLimits = (request: Request, email: string): Array<[string, RateLimit]> => [
  [`resend:account:${email}`, RATE_LIMITS.resendsPerAccount],
  [`resend:client:${clientKey(request)}`, RATE_LIMITS.resendsPerClient],
];
