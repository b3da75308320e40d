// The provider's side of the ledger property (ledger-properties.test.ts): a Worker that dies between a
// provider call and its own write, and what the sandbox (Chapa's stand-in) says it holds for a world.
import { env } from "cloudflare:test";

import {
  readSandboxRecord,
  REFUNDS_PREFIX,
  sandboxChargeOf,
  sandboxTransaction,
  TRANSFERS_PREFIX,
} from "~/server/payments/sandbox-store.server";
import { type SandboxTransfer } from "~/server/payments/sandbox-transfers.server";

/** Thrown where the Worker would have been killed: the money code's next D1 call after the provider took the request. */
class WorkerDied extends Error {
  constructor() {
    super("the Worker died after the provider took the call, before writing what it answered");
  }
}

/** A crash is part of the game: the invocation ends there (its promise rejects), and nothing after it ran. */
export const surviving = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => {
      if (!(error instanceof WorkerDied)) throw error;
    },
  );

/**
 * An `env` for one invocation that dies right after the provider took a money request. The sandbox is
 * Chapa's stand-in running in process: it records a refund or a transfer (in R2, under
 * `payment-sandbox/refunds/` or `transfers/`) when it takes one, before it answers, and posts its webhook
 * to the Worker itself (another invocation, with its own env, which lives). From that moment every D1
 * call of this invocation throws, so the money code's own write of the answer (accepted, settled,
 * failed, a note) never happens, as when the isolate is killed after `fetch` returned: the provider has
 * the refund or transfer, our row still says we asked (its attempt counted) and nothing more. What was
 * written before the call (the refund or payout row and its "started" entry, claimed by its attempt)
 * stays, as it would. Only the jobs, later, can find out what became of it.
 */
export function crashingEnv(): Env {
  let taken = false;
  const died = () => {
    if (taken) throw new WorkerDied();
  };
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values)),
      first: (column?: string) => {
        died();
        return column === undefined ? statement.first() : statement.first(column);
      },
      run: () => {
        died();
        return statement.run();
      },
      all: () => {
        died();
        return statement.all();
      },
      raw: (options?: { columnNames?: boolean }) => {
        died();
        return options?.columnNames ? statement.raw({ columnNames: true }) : statement.raw();
      },
    } as unknown as D1PreparedStatement;
    real.set(wrapped, statement);
    return wrapped;
  };
  const DB = {
    prepare: (query: string) => {
      died();
      return wrap(env.DB.prepare(query));
    },
    batch: (statements: D1PreparedStatement[]) => {
      died();
      return env.DB.batch(statements.map((statement) => real.get(statement) ?? statement));
    },
  } as unknown as D1Database;
  const FILES = new Proxy(env.FILES, {
    get(bucket, property) {
      if (property === "put")
        return async (key: string, ...rest: [never, never]) => {
          const stored = await bucket.put(key, ...rest);
          if (key.startsWith(REFUNDS_PREFIX) || key.startsWith(TRANSFERS_PREFIX)) taken = true;
          return stored;
        };
      const value: unknown = Reflect.get(bucket, property);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(bucket) : value;
    },
  });
  return { ...env, DB, FILES };
}

/**
 * What the sandbox says it holds for these payments and payouts (as its balance counts them): what it
 * received (less its charge), less what it gave back (refunds, a dashboard refund, a chargeback) and
 * what it sent (transfers not failed, with their fees); and its charges and fees.
 */
export async function providerMoneyOf(txRefs: string[], payoutReferences: string[]) {
  let heldSantim = 0;
  let feesSantim = 0;
  for (const txRef of txRefs) {
    const transaction = await sandboxTransaction(env, txRef);
    if (!transaction || !["success", "refunded", "reversed"].includes(transaction.status)) continue;
    const charge = sandboxChargeOf(transaction.amountSantim);
    heldSantim += transaction.amountSantim - charge - (transaction.refundedSantim ?? 0);
    feesSantim += charge;
  }
  for (const reference of payoutReferences) {
    const transfer = await readSandboxRecord<SandboxTransfer>(env, `${TRANSFERS_PREFIX}${reference}`);
    if (!transfer || transfer.status === "failed") continue;
    heldSantim -= transfer.amountSantim + transfer.feeSantim;
    feesSantim += transfer.feeSantim;
  }
  return { heldSantim, feesSantim };
}
