// How the sandbox answers refunds and payouts (app/domain/payment-sandbox.ts says what each setting
// does), set from /dev/payments or a test, and kept in R2 with the sandbox's records.
import { z } from "zod";

import { SANDBOX_SWITCH_SETTINGS, type SandboxSwitch, type SandboxSwitchSetting } from "~/domain/payment-sandbox";

import { readSandboxRecord, SWITCHES_KEY, writeSandboxRecord } from "./sandbox-store.server";

const Setting = z.enum(SANDBOX_SWITCH_SETTINGS).catch("succeed");
const Switches = z.object({ refunds: Setting, payouts: Setting }).catch({ refunds: "succeed", payouts: "succeed" });

export async function sandboxSwitches(env: Env): Promise<Record<SandboxSwitch, SandboxSwitchSetting>> {
  // A file spoiled by hand reads as the defaults.
  const stored = await readSandboxRecord(env, SWITCHES_KEY).catch(() => null);
  return Switches.parse(stored ?? {});
}

export async function setSandboxSwitch(env: Env, which: SandboxSwitch, setting: SandboxSwitchSetting) {
  await writeSandboxRecord(env, SWITCHES_KEY, { ...(await sandboxSwitches(env)), [which]: setting });
}
