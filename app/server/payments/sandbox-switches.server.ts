// How the sandbox answers refunds, payouts and webhooks (app/domain/payment-sandbox.ts says what each
// setting does), set from /dev/payments or a test, and kept in R2 with the sandbox's records.
import { z } from "zod";

import {
  DEFAULT_SANDBOX_SWITCHES,
  SANDBOX_SWITCH_SETTINGS,
  type SandboxSwitch,
  type SandboxSwitches,
  type SandboxSwitchSetting,
} from "~/domain/payment-sandbox";

import { readSandboxRecord, SWITCHES_KEY, writeSandboxRecord } from "./sandbox-store.server";

const Switches = z
  .object({
    refunds: z.enum(SANDBOX_SWITCH_SETTINGS.refunds).catch(DEFAULT_SANDBOX_SWITCHES.refunds),
    payouts: z.enum(SANDBOX_SWITCH_SETTINGS.payouts).catch(DEFAULT_SANDBOX_SWITCHES.payouts),
    webhooks: z.enum(SANDBOX_SWITCH_SETTINGS.webhooks).catch(DEFAULT_SANDBOX_SWITCHES.webhooks),
  })
  .catch(DEFAULT_SANDBOX_SWITCHES);

export async function sandboxSwitches(env: Env): Promise<SandboxSwitches> {
  // A file spoiled by hand reads as the defaults.
  const stored = await readSandboxRecord(env, SWITCHES_KEY).catch(() => null);
  return Switches.parse(stored ?? {});
}

export async function setSandboxSwitch<Which extends SandboxSwitch>(env: Env, which: Which, setting: SandboxSwitchSetting<Which>) {
  await writeSandboxRecord(env, SWITCHES_KEY, { ...(await sandboxSwitches(env)), [which]: setting });
}
