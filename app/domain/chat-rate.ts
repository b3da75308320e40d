// How many chat messages one person may send: only the consultation room applies it (a module of its
// own, so the pages that import the chat's other rules do not ship it).
import { MAX_CHAT_MESSAGES_PER_MINUTE } from "./constants";

/**
 * Whether one more message fits the sender's rate, given when their recent ones were sent; returns
 * the times still within the last minute (to keep) either way.
 */
export function chatRateCheck(sentAtMs: readonly number[], nowMs: number): { allowed: boolean; recent: number[] } {
  const recent = sentAtMs.filter((sentAt) => nowMs - sentAt < 60_000);
  return { allowed: recent.length < MAX_CHAT_MESSAGES_PER_MINUTE, recent };
}
