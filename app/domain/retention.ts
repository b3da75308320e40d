// A patient's privacy rights (docs/decisions/0037): closing the account, and how long what the law and
// our terms make us keep is kept. Personal data goes at once; the medical record (a consultation's
// words, summary, photos and chat) is kept RECORD_RETENTION_YEARS after the patient's last
// consultation, then purged by the scheduled job; money records are kept, anonymised, for accounting.
import { RECORD_RETENTION_YEARS } from "./constants";

/** The words that confirm the closing (either language's, whatever the page's language). */
export const CLOSE_ACCOUNT_WORDS = { en: "CLOSE", am: "ይዘጋ" } as const;
export const CLOSE_ACCOUNT_INTENT = "close-account";
/** The most consultation records one run of the scheduled job purges (it runs every 15 minutes). */
export const MAX_RECORDS_PURGED_PER_RUN = 20;

/** Whether the typed confirmation is one of the closing words (case and surrounding spaces aside). */
export function confirmsClosing(typed: unknown): boolean {
  if (typeof typed !== "string") return false;
  const word = typed.trim().toUpperCase();
  return Object.values(CLOSE_ACCOUNT_WORDS).some((expected) => expected.toUpperCase() === word);
}

export type CloseRefusal = "not_confirmed" | "active_consultation" | "money_held";

/** Why the account may not close now: a consultation still open, or money not yet settled. */
export function closeRefusal(facts: { openConsultations: number; unsettledMoney: number }): CloseRefusal | null {
  if (facts.openConsultations > 0) return "active_consultation";
  if (facts.unsettledMoney > 0) return "money_held";
  return null;
}

/**
 * When a closed account's medical records are purged: RECORD_RETENTION_YEARS after its last
 * consultation (its end, else its start), and never before the closing itself.
 */
export function purgeDateOf(lastConsultationAt: Date | null, closedAt: Date): Date {
  if (!lastConsultationAt) return closedAt;
  const due = new Date(lastConsultationAt);
  due.setUTCFullYear(due.getUTCFullYear() + RECORD_RETENTION_YEARS);
  return due > closedAt ? due : closedAt;
}

export type RecordRetention = { kind: "kept" } | { kind: "scheduled"; on: Date } | { kind: "purged"; on: Date };

/** Where a consultation record stands: kept while its patient's account is open, due to be purged, or purged. */
export function recordRetention(record: { purgeAfter: Date | null; purgedAt: Date | null }): RecordRetention {
  if (record.purgedAt) return { kind: "purged", on: record.purgedAt };
  if (record.purgeAfter) return { kind: "scheduled", on: record.purgeAfter };
  return { kind: "kept" };
}
