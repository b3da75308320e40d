// Global setup of the Workers layer: the Worker under test imports build/server, so a build older than
// its sources is refused rather than tested (`npm test` builds first). Here, not in the config, so
// tools that only read the config (knip) do not need a build.
import { staleBuildReason } from "../support/build-freshness";

export function setup() {
  const stale = staleBuildReason();
  if (stale) throw new Error(stale);
}
