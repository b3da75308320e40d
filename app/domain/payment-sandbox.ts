// The local payment sandbox's switches (development and tests): shared by its page and its server code.
// Each makes the sandbox misbehave the way Chapa really does (docs/decisions/0045):
// - refunds: `succeed`; `fail` (refused: "not eligible"); `timeout_after_taking` (made, but the answer
//   never comes back); `unreachable` (a 503, nothing taken); `drop_webhook` (made, no webhook);
// - payouts: `succeed`; `fail` (taken, then failed by the bank); `timeout_after_taking`; `queued` (taken,
//   and verify says `queued` until the switch is set otherwise); `closed_hours` (refused: outside Chapa's
//   transfer hours); `unreachable`; `drop_webhook`;
// - webhooks, for every event: `on_time`; `twice`; `late` (kept until sent from the sandbox's page).

export const SANDBOX_SWITCH_SETTINGS = {
  refunds: ["succeed", "fail", "timeout_after_taking", "unreachable", "drop_webhook"],
  payouts: ["succeed", "fail", "timeout_after_taking", "queued", "closed_hours", "unreachable", "drop_webhook"],
  webhooks: ["on_time", "twice", "late"],
} as const;

export type SandboxSwitch = keyof typeof SANDBOX_SWITCH_SETTINGS;
export const SANDBOX_SWITCHES = Object.keys(SANDBOX_SWITCH_SETTINGS) as SandboxSwitch[];
export type SandboxSwitchSetting<Which extends SandboxSwitch = SandboxSwitch> = (typeof SANDBOX_SWITCH_SETTINGS)[Which][number];
export type SandboxSwitches = { [Which in SandboxSwitch]: SandboxSwitchSetting<Which> };

export const DEFAULT_SANDBOX_SWITCHES: SandboxSwitches = { refunds: "succeed", payouts: "succeed", webhooks: "on_time" };

/** What the sandbox charges for a transfer, as Chapa charges one (taken from the balance beside the amount). */
export const SANDBOX_TRANSFER_FEE_SANTIM = 500;
