// The local payment sandbox's switches (development and tests): shared by its page and its server code.
// For refunds and for payouts separately: `succeed`; `fail` (a refund is refused; a transfer is taken,
// then fails with a reason); or `drop_webhook` (it succeeds, but no webhook is posted, so only a later
// verify finds out).

export const SANDBOX_SWITCHES = ["refunds", "payouts"] as const;
export const SANDBOX_SWITCH_SETTINGS = ["succeed", "fail", "drop_webhook"] as const;
export type SandboxSwitch = (typeof SANDBOX_SWITCHES)[number];
export type SandboxSwitchSetting = (typeof SANDBOX_SWITCH_SETTINGS)[number];
