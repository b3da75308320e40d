import type { AppLoadContext } from "@remix-run/cloudflare";

import { createDatabase, type Database } from "~/server/db/client.server";
import { type AppConfig, loadConfig } from "~/server/env.server";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext };
    config: AppConfig;
    db: Database;
    /** This response's CSP nonce, for the scripts Remix renders. */
    cspNonce: string;
  }
}

/** `d1`: the request's D1 session (read-replicas.server), which its reads and changes go through. */
export function createLoadContext(env: Env, ctx: ExecutionContext, cspNonce: string, d1: D1DatabaseSession): AppLoadContext {
  return { cloudflare: { env, ctx }, config: loadConfig(env), db: createDatabase(d1), cspNonce };
}
