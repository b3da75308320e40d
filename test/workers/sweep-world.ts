// The people and records the bad-input sweep probes with: each kind of visitor signed in, with a
// consultation in each state the pages act on, and a second patient and doctor whose ids are the
// "other users' ids" a probe swaps in.
import { eq } from "drizzle-orm";

import { profiles } from "~/db/schema";

import { createConsultation, db, signedIn } from "./fixtures";
import { attemptPaidAtProvider } from "./money-fixtures";

const MINUTE_MS = 60_000;

export async function makeWorld() {
  const [patient, otherPatient, doctor, otherDoctor, admin] = [
    await signedIn("patient"),
    await signedIn("patient"),
    await signedIn("doctor"),
    await signedIn("doctor"),
    await signedIn("admin"),
  ];
  // A patient who has not yet agreed to the terms (the consent page's own visitor).
  const newPatient = await signedIn("patient");
  await db.update(profiles).set({ consentTerms: false, consentPrivacy: false }).where(eq(profiles.userId, newPatient.userId));
  const now = Date.now();
  const waiting = await createConsultation(patient.userId, "pending");
  const awaitingPayment = await createConsultation(patient.userId, "accepted_awaiting_payment", {
    doctorId: doctor.userId,
    acceptedAt: new Date(now - MINUTE_MS),
    paymentDeadlineAt: new Date(now + 14 * MINUTE_MS),
  });
  const txRef = await attemptPaidAtProvider(awaitingPayment.id, patient.userId, { paid: false });
  const underWay = await createConsultation(patient.userId, "in_progress", {
    doctorId: doctor.userId,
    acceptedAt: new Date(now - 30 * MINUTE_MS),
    startedAt: new Date(now - 20 * MINUTE_MS),
  });
  const ended = await createConsultation(patient.userId, "completed", {
    doctorId: doctor.userId,
    acceptedAt: new Date(now - 60 * MINUTE_MS),
    startedAt: new Date(now - 50 * MINUTE_MS),
    completedAt: new Date(now - 10 * MINUTE_MS),
    diagnosis: "Contact dermatitis",
  });
  // Someone else's: the ids a probe swaps in for the visitor's own.
  const othersUnderWay = await createConsultation(otherPatient.userId, "in_progress", {
    doctorId: otherDoctor.userId,
    acceptedAt: new Date(now - 30 * MINUTE_MS),
    startedAt: new Date(now - 20 * MINUTE_MS),
  });
  const othersTxRef = await attemptPaidAtProvider(othersUnderWay.id, otherPatient.userId, { paid: false });
  return {
    patient,
    newPatient,
    otherPatient,
    doctor,
    otherDoctor,
    admin,
    waiting,
    awaitingPayment,
    txRef,
    underWay,
    ended,
    othersUnderWay,
    othersTxRef,
  };
}

export type World = Awaited<ReturnType<typeof makeWorld>>;
