// How the sandbox answers refunds and payouts, set from /dev/payments (or a test): `succeed`; `fail`
// (a refund is refused; a transfer is taken, then fails with a reason); or `drop_webhook` (it succeeds,
// but no webhook is posted, so only a later verify finds out). Kept in R2 with the sandbox's records.
import { z } from "zod";

import { readSandboxRecord, SWITCHES_KEY, writeSandboxRecord } from "./sandbox-store.server";

export const SANDBOX_SWITCHES = ["refunds", "payouts"] as const;
export const SANDBOX_SWITCH_SETTINGS = ["succeed", "fail", "drop_webhook"] as const;
export type SandboxSwitch = (typeof SANDBOX_SWITCHES)[number];
export type SandboxSwitchSetting = (typeof SANDBOX_SWITCH_SETTINGS)[number];

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
