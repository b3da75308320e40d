// Worlds a journey needs before its own part begins, arranged through the app's own forms as a browser
// without JavaScript posts them (the same actions, checks and writers, only no page drawn): a request
// accepted, paid in the sandbox, ended with a summary. The whole consultation is walked through the
// pages once, in payments.test.ts; journeys about what comes after start from here.
import type { Page } from "playwright-core";

import { CLOSING_INTENTS } from "~/domain/consultation-closing";
import { DECISION_INTENTS } from "~/domain/consultation-decisions";

import { baseUrl, STEP_TIMEOUT_MS } from "./journey";

/** Posts `form` to `path` as the signed-in person on `page`, from the app's own origin; fails unless it answered `expected`. */
async function post(page: Page, path: string, form: Record<string, string>, expected: number) {
  const response = await page.request.post(new URL(path, baseUrl).href, {
    headers: { Origin: baseUrl },
    form,
    maxRedirects: 0,
    timeout: STEP_TIMEOUT_MS,
  });
  if (response.status() !== expected) throw new Error(`${path} answered ${response.status()}, not ${expected}`);
  return response;
}

/** The consultation's id in the address a request led to. */
export function consultationIdIn(address: string): string {
  const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(address)?.[0];
  if (!id) throw new Error(`No consultation id in ${address}`);
  return id;
}

/** The signed-in doctor on `page` accepts the waiting request, as its page's Accept button posts. */
export async function acceptDirectly(doctor: Page, consultationId: string) {
  await post(doctor, `/doctor/consultation/${consultationId}`, { intent: DECISION_INTENTS.accept }, 200);
}

/**
 * The signed-in patient on `page` pays for the accepted request in the payment sandbox, as the payment
 * page and the sandbox's checkout post; resolves with the payment's tx_ref once the return page has
 * verified it (the consultation is then under way).
 */
export async function payDirectly(patient: Page, consultationId: string) {
  const page = await patient.request.get(`${baseUrl}/patient/payment/${consultationId}`, { timeout: STEP_TIMEOUT_MS });
  const txRef = /<input[^>]*name="txRef"[^>]*value="([^"]+)"/.exec(await page.text())?.[1];
  if (!txRef) throw new Error(`The payment page of ${consultationId} answered ${page.status()} without a tx_ref`);
  const started = await post(patient, `/patient/payment/${consultationId}`, { intent: "pay", txRef }, 302);
  const checkout = await post(patient, started.headers().location!, { outcome: "pay" }, 302);
  const returned = await patient.request.get(new URL(checkout.headers().location!, baseUrl).href, { timeout: STEP_TIMEOUT_MS });
  if (!new URL(returned.url()).pathname.startsWith(`/patient/consultation/${consultationId}`))
    throw new Error(`Paying for ${consultationId} ended at ${returned.url()}`);
  return txRef;
}

/** The signed-in doctor on `page` ends the consultation with a diagnosis and a plan, as the summary form posts. */
export async function endDirectly(doctor: Page, consultationId: string, summary: { diagnosis: string; treatmentPlan: string }) {
  await post(doctor, `/doctor/consultation/${consultationId}`, { intent: CLOSING_INTENTS.end, observations: "", ...summary }, 302);
}

/** The signed-in patient on `page` rates the ended consultation 5 stars, as its feedback form posts. */
export async function rateDirectly(patient: Page, consultationId: string) {
  await post(patient, `/patient/feedback/${consultationId}`, { rating: "5" }, 302);
}
