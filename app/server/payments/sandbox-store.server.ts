// Where the local sandbox keeps what Chapa would keep (R2, under `payment-sandbox/`): each transaction
// under its tx_ref, refunds under `refunds/<reference>`, transfers under `transfers/<reference>`,
// webhooks held back under `held-webhooks/`, and the switches that decide how it answers. Development
// and tests only.
import type { Checkout } from "./payment-provider.server";

const KEY_PREFIX = "payment-sandbox/";
export const REFUNDS_PREFIX = `${KEY_PREFIX}refunds/`;
export const TRANSFERS_PREFIX = `${KEY_PREFIX}transfers/`;
export const HELD_WEBHOOKS_PREFIX = `${KEY_PREFIX}held-webhooks/`;
export const SWITCHES_KEY = `${KEY_PREFIX}switches.json`;

export interface SandboxTransaction extends Checkout {
  /** As Chapa's verify reports it: pending, success, failed, refunded, reversed; tests may set any other word, as Chapa might. */
  status: string;
  /** ETB unless a test makes the provider disagree. */
  currency?: string;
  reference: string;
  createdAt: number;
  /** How much of it has been given back (by refunds, or all of it by a reversal). */
  refundedSantim?: number;
}

const transactionKey = (txRef: string) => `${KEY_PREFIX}${txRef}`;

/** The sandbox keeps a charge as Chapa does (3.5 % of the amount), so the books carry a provider fee locally too. */
export const sandboxChargeOf = (amountSantim: number) => Math.round((amountSantim * 35) / 1000);

/** A reference of the sandbox's own, shaped like Chapa's ("AP…" for payments; here "SBX…"). */
export const sandboxReference = () => `SBX${crypto.randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`;

export async function readSandboxRecord<Stored>(env: Env, key: string): Promise<Stored | null> {
  const object = await env.FILES.get(key);
  return object ? ((await object.json()) as Stored) : null;
}

export async function writeSandboxRecord(env: Env, key: string, record: unknown) {
  await env.FILES.put(key, JSON.stringify(record), { httpMetadata: { contentType: "application/json" } });
}

export const sandboxTransaction = (env: Env, txRef: string) => readSandboxRecord<SandboxTransaction>(env, transactionKey(txRef));
export const hasSandboxTransaction = async (env: Env, txRef: string) => (await env.FILES.head(transactionKey(txRef))) !== null;
export const saveSandboxTransaction = (env: Env, transaction: SandboxTransaction) =>
  writeSandboxRecord(env, transactionKey(transaction.txRef), transaction);

/** Every key directly under `prefix` (not in its folders), all pages. */
async function keysUnder(env: Env, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const listed = await env.FILES.list({ prefix, delimiter: "/", cursor });
    keys.push(...listed.objects.map((object) => object.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return keys;
}

/** Every record directly under `prefix`, newest first by its own `createdAt`. */
export async function sandboxRecords<Stored extends { createdAt: number }>(env: Env, prefix: string): Promise<Stored[]> {
  const keys = (await keysUnder(env, prefix)).filter((key) => key !== SWITCHES_KEY);
  const records = await Promise.all(keys.map((key) => readSandboxRecord<Stored>(env, key)));
  return records.filter((record) => record !== null).sort((a, b) => b.createdAt - a.createdAt);
}

export const sandboxTransactions = (env: Env) => sandboxRecords<SandboxTransaction>(env, KEY_PREFIX);

/** The newest `limit` records under a prefix (newest first by their own `createdAt`). */
export async function latestSandboxRecords<Stored extends { createdAt: number }>(
  env: Env,
  prefix: string,
  limit: number,
): Promise<Stored[]> {
  const listed = await env.FILES.list({ prefix });
  const newest = listed.objects.sort((a, b) => b.uploaded.getTime() - a.uploaded.getTime()).slice(0, limit);
  const records: Array<Stored | null> = await Promise.all(newest.map((object) => readSandboxRecord<Stored>(env, object.key)));
  return records.filter((record) => record !== null).sort((a, b) => b.createdAt - a.createdAt);
}
