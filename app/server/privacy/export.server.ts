// A patient's copy of everything Qoda holds about them (docs/decisions/0037), as a ZIP streamed to the
// browser: profile.json, consultations.json (intake, summary, timeline facts, rating), one file of
// messages per consultation with a chat, payments.json (payments, refunds, disputes, receipts), and
// the photos and chat images themselves from R2. Every query is scoped by the patient's own id.
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import type { TFunction } from "i18next";

import {
  consultationFiles,
  consultations,
  disputes,
  oauthAccounts,
  patientFeedback,
  payments,
  profiles,
  refunds,
  telegramLinks,
  users,
} from "~/db/schema";
import { hasChat } from "~/domain/chat";
import type { Database } from "~/server/db/client.server";
import { patientReceipt } from "~/server/money/receipt.server";
import { chatRecord } from "~/server/rooms.server";

type ZipEntry = { name: string; data: Uint8Array } | { name: string; body: ReadableStream<Uint8Array> };

const EXTENSIONS: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };
/** `<path>.json` holding `value`, indented for a person to read. */
const json = (path: string, value: unknown): ZipEntry => ({
  name: `${path}.json`,
  data: new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`),
});
const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * A ZIP of `entries`, made as the reader takes it: one entry at a time, a photo read from R2 in its
 * own chunks, so memory holds at most one photo. JSON is deflated; photos are stored as they are
 * (JPEG, PNG and WebP are compressed already).
 */
function zipStream(entries: AsyncIterator<ZipEntry>): ReadableStream<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  let ended = false;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (ready.length === 0 && !ended) {
        const next = await entries.next();
        if (next.done) {
          zip.end();
          ended = true;
        } else if ("data" in next.value) {
          const file = new ZipDeflate(next.value.name, { level: 6 });
          zip.add(file);
          file.push(next.value.data, true);
        } else {
          const file = new ZipPassThrough(next.value.name);
          zip.add(file);
          const reader = next.value.body.getReader();
          for (let read = await reader.read(); !read.done; read = await reader.read()) file.push(read.value);
          file.push(new Uint8Array(0), true);
        }
      }
      if (failure) throw failure;
      for (const chunk of ready.splice(0)) controller.enqueue(chunk);
      if (ended) controller.close();
    },
  });
}

async function profileOf(db: Database, patientId: string) {
  const [account] = await db
    .select({ id: users.id, email: users.email, emailConfirmedAt: users.emailConfirmedAt, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, patientId));
  const profile = await db.query.profiles.findFirst({ where: eq(profiles.userId, patientId) });
  const linked = await db.select({ provider: oauthAccounts.provider }).from(oauthAccounts).where(eq(oauthAccounts.userId, patientId));
  const telegram = await db.select({ userId: telegramLinks.userId }).from(telegramLinks).where(eq(telegramLinks.userId, patientId));
  return {
    id: account?.id,
    email: account?.email,
    emailConfirmedAt: iso(account?.emailConfirmedAt ?? null),
    accountCreatedAt: iso(account?.createdAt ?? null),
    firstName: profile?.firstName ?? "",
    lastName: profile?.lastName ?? "",
    phone: profile?.phone ?? null,
    preferredLanguage: profile?.preferredLanguage ?? null,
    consentedToTermsAndPrivacyAt: iso(profile?.consentTimestamp ?? null),
    signInWith: linked.map((link) => link.provider),
    telegramLinked: telegram.length > 0,
  };
}

async function consultationsOf(db: Database, patientId: string) {
  const rows = await db.select().from(consultations).where(eq(consultations.patientId, patientId)).orderBy(desc(consultations.createdAt));
  const ids = rows.map((row) => row.id);
  const doctorIds = [...new Set(rows.map((row) => row.doctorId).filter((id): id is string => id !== null))];
  const doctorNames =
    doctorIds.length > 0
      ? await db
          .select({ userId: profiles.userId, firstName: profiles.firstName, lastName: profiles.lastName })
          .from(profiles)
          .where(inArray(profiles.userId, doctorIds))
      : [];
  const files =
    ids.length > 0
      ? await db
          .select()
          .from(consultationFiles)
          .where(and(inArray(consultationFiles.consultationId, ids), isNull(consultationFiles.deletedAt)))
          .orderBy(consultationFiles.createdAt)
      : [];
  const feedback = await db.select().from(patientFeedback).where(eq(patientFeedback.patientId, patientId));
  const filePath = (file: (typeof files)[number]) =>
    `photos/${file.consultationId}/${file.kind === "photo" ? "" : "chat-"}${file.id}.${EXTENSIONS[file.contentType] ?? "bin"}`;
  const records = rows.map((row) => {
    const doctor = doctorNames.find((name) => name.userId === row.doctorId);
    const rating = feedback.find((given) => given.consultationId === row.id);
    return {
      id: row.id,
      status: row.status,
      priority: row.priority,
      doctor: doctor ? `${doctor.firstName} ${doctor.lastName}`.trim() : null,
      followUpOf: row.followUpOfId,
      request: {
        title: row.title,
        mainConcern: row.mainConcern,
        medicalHistory: row.medicalHistory,
        additionalComments: row.additionalComments,
      },
      intake: {
        ageYears: row.patientAgeYears,
        sex: row.patientSex,
        bodyAreas: row.bodyAreas ? row.bodyAreas.split(",") : [],
        duration: row.durationAmount ? { amount: row.durationAmount, unit: row.durationUnit } : null,
        symptoms: row.symptoms ? row.symptoms.split(",") : [],
        treatmentsTried: row.treatmentsTried,
        allergies: row.allergies,
        pregnancy: row.pregnancy,
      },
      summary:
        row.diagnosis || row.observations || row.treatmentPlan
          ? {
              observations: row.observations,
              diagnosis: row.diagnosis,
              treatmentPlan: row.treatmentPlan,
              newPhotosDueAt: iso(row.newPhotosDueAt),
            }
          : null,
      timeline: {
        requestedAt: iso(row.createdAt),
        acceptedAt: iso(row.acceptedAt),
        startedAt: iso(row.startedAt),
        completedAt: iso(row.completedAt),
        cancelledAt: iso(row.cancelledAt),
        declineReason: row.declineReason,
        declineNote: row.declineNote,
      },
      retention: { purgeAfter: iso(row.purgeAfter), purgedAt: iso(row.purgedAt) },
      rating: rating ? { rating: rating.rating, words: rating.feedbackMessage, at: iso(rating.createdAt) } : null,
      photos: files
        .filter((file) => file.consultationId === row.id)
        .map((file) => ({
          file: filePath(file),
          kind: file.kind,
          photoKind: file.photoKind,
          bodyArea: file.bodyArea,
          at: iso(file.createdAt),
        })),
    };
  });
  return { rows, records, files, filePath };
}

async function moneyOf(db: Database, t: TFunction, language: string, patientId: string) {
  const paid = await db.select().from(payments).where(eq(payments.patientId, patientId)).orderBy(desc(payments.createdAt));
  const own = db.select({ id: consultations.id }).from(consultations).where(eq(consultations.patientId, patientId));
  const refundRows = await db.select().from(refunds).where(inArray(refunds.consultationId, own));
  const disputeRows = await db.select().from(disputes).where(eq(disputes.patientId, patientId));
  const receipts = [];
  for (const payment of paid) {
    if (payment.paidAt) receipts.push({ paymentId: payment.id, ...(await patientReceipt(db, t, language, patientId, payment.id)) });
  }
  return {
    payments: paid.map((payment) => ({
      id: payment.id,
      consultationId: payment.consultationId,
      txRef: payment.txRef,
      provider: payment.provider,
      amountSantim: payment.amountSantim,
      currency: payment.currency,
      status: payment.status,
      providerReference: payment.providerReference,
      createdAt: iso(payment.createdAt),
      paidAt: iso(payment.paidAt),
    })),
    refunds: refundRows.map((refund) => ({
      id: refund.id,
      consultationId: refund.consultationId,
      paymentId: refund.paymentId,
      amountSantim: refund.amountSantim,
      reason: refund.reason,
      status: refund.status,
      createdAt: iso(refund.createdAt),
    })),
    disputes: disputeRows.map((dispute) => ({
      consultationId: dispute.consultationId,
      reason: dispute.reason,
      yourWords: dispute.patientWords,
      status: dispute.status,
      resolution: dispute.resolution,
      refundedSantim: dispute.refundSantim,
      openedAt: iso(dispute.createdAt),
      resolvedAt: iso(dispute.resolvedAt),
    })),
    receipts,
  };
}

/** The ZIP of the patient's data, streamed; its entries are read one after the other as it goes. */
export function patientDataZip(env: Env, db: Database, t: TFunction, language: string, patientId: string) {
  async function* entries(): AsyncGenerator<ZipEntry> {
    yield json("profile", await profileOf(db, patientId));
    const { rows, records, files, filePath } = await consultationsOf(db, patientId);
    yield json("consultations", records);
    for (const row of rows) {
      if (!row.startedAt || (!hasChat(row.status) && row.status !== "cancelled") || row.purgedAt) continue;
      const messages = await chatRecord(env, row.id);
      const fileOf = (fileId: string | null) => files.find((file) => file.id === fileId);
      yield json(
        `messages/${row.id}`,
        messages.map((message) => {
          const photo = fileOf(message.fileId);
          return {
            from: message.senderRole,
            text: message.text,
            photo: photo ? filePath(photo) : null,
            sentAt: new Date(message.sentAt).toISOString(),
          };
        }),
      );
    }
    yield json("payments", await moneyOf(db, t, language, patientId));
    for (const file of files) {
      const object = await env.FILES.get(file.storageKey);
      if (object) yield { name: filePath(file), body: object.body };
    }
  }
  return zipStream(entries());
}
