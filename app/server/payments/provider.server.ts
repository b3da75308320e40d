// One payment-provider interface, two implementations chosen by configuration (docs/decisions/0017):
// Chapa in production, and outside production the local sandbox checkout. Both answer `verify` with
// what the provider itself recorded, and both sign their webhooks the way Chapa does, so the webhook
// route and the confirmation run the same code whichever takes the money.
import type { AppConfig } from "~/server/env.server";

import { chapaProvider } from "./chapa.server";
import type { PaymentProvider } from "./payment-provider.server";
import { sandboxProvider } from "./sandbox.server";

export function paymentProvider(config: AppConfig, env: Env, origin: string): PaymentProvider {
  return config.paymentProvider === "sandbox" ? sandboxProvider(config, env, origin) : chapaProvider(config);
}
