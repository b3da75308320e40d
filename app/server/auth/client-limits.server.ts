// Rate-limit keys for the account forms, per account and per client (sign-in: sign-in-attempt.server).
import { clientIdentity } from "~/domain/client-identity";
import { RATE_LIMITS, type RateLimit } from "~/domain/rate-limits";
import { clientAddress } from "~/server/client-address.server";

/** One client for rate limits: its address, or its IPv6 /64 (see client-identity). */
export const clientKey = (request: Request) => clientIdentity(clientAddress(request));

export const signUpLimits = (request: Request): Array<[string, RateLimit]> => [
  [`sign-up:client:${clientKey(request)}`, RATE_LIMITS.signUpsPerClient],
];

export const doctorApplicationLimits = (request: Request): Array<[string, RateLimit]> => [
  [`doctor-application:client:${clientKey(request)}`, RATE_LIMITS.doctorApplicationsPerClient],
];

export const contactMessageLimits = (request: Request): Array<[string, RateLimit]> => [
  [`contact-message:client:${clientKey(request)}`, RATE_LIMITS.contactMessagesPerClient],
];

export const resetLimits = (request: Request, email: string): Array<[string, RateLimit]> => [
  [`reset:account:${email}`, RATE_LIMITS.resetRequestsPerAccount],
  [`reset:client:${clientKey(request)}`, RATE_LIMITS.resetRequestsPerClient],
];

export const signInLinkLimits = (request: Request, email: string): Array<[string, RateLimit]> => [
  [`sign-in-link:account:${email}`, RATE_LIMITS.signInLinksPerAccount],
  [`sign-in-link:client:${clientKey(request)}`, RATE_LIMITS.signInLinksPerClient],
];

export const resendLimits = (request: Request, email: string): Array<[string, RateLimit]> => [
  [`resend:account:${email}`, RATE_LIMITS.resendsPerAccount],
  [`resend:client:${clientKey(request)}`, RATE_LIMITS.resendsPerClient],
];
