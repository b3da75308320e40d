// A patient's feedback: one per consultation, kept with the doctor it is about.
import { eq } from "drizzle-orm";

import { patientFeedback } from "~/db/schema";
import type { Feedback } from "~/domain/feedback";
import type { Database } from "~/server/db/client.server";

export async function feedbackOf(db: Database, consultationId: string) {
  return (
    (await db.query.patientFeedback.findFirst({
      columns: { rating: true, feedbackMessage: true, createdAt: true },
      where: eq(patientFeedback.consultationId, consultationId),
    })) ?? null
  );
}

/** Saves the feedback unless the consultation already has one (a double click, a second tab): true if saved. */
export async function saveFeedback(
  db: Database,
  consultation: { id: string; patientId: string; doctorId: string | null },
  feedback: Feedback,
  now: Date,
): Promise<boolean> {
  const saved = await db
    .insert(patientFeedback)
    .values({
      consultationId: consultation.id,
      patientId: consultation.patientId,
      doctorId: consultation.doctorId,
      rating: feedback.rating,
      feedbackMessage: feedback.message,
      allowContact: feedback.allowContact,
      contactMethod: feedback.allowContact ? (feedback.contactMethod ?? null) : null,
      contactValue: feedback.allowContact ? (feedback.contactValue ?? null) : null,
      createdAt: now,
    })
    .onConflictDoNothing({ target: patientFeedback.consultationId })
    .returning({ id: patientFeedback.id });
  return saved.length === 1;
}
