// Photos in R2 (a request's, and those sent in a consultation's chat): checked by their bytes, stored
// under generated keys, recorded in D1, and served only through the authorized resource route
// (routes/files.$fileId.ts).
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";

import { consultationFiles, consultations } from "~/db/schema";
import { MAX_PHOTO_BYTES, MAX_PHOTOS_PER_REQUEST } from "~/domain/constants";
import { mayOpenChatImage, mayViewConsultation } from "~/domain/consultation-access";
import { type PhotoRefusal, photoRefusal, sniffPhotoType } from "~/domain/consultation-request";
import { isUuid } from "~/domain/ids";
import type { PhotoDescription } from "~/domain/photo-description";
import { openingInForce } from "~/server/admin/opening-grant.server";
import { auditStatement } from "~/server/audit.server";
import type { SessionUser } from "~/server/auth/session.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";
import type { Database } from "~/server/db/client.server";

export type StoredPhoto = { ok: true; id: string } | { ok: false; refusal: PhotoRefusal | "alreadySubmitted"; fileName: string };

async function countPhotos(db: Database, consultationId: string) {
  const [row] = await db
    .select({ photos: count() })
    .from(consultationFiles)
    .where(
      and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.kind, "photo"), isNull(consultationFiles.deletedAt)),
    );
  return row?.photos ?? 0;
}

/** Enough of a photo to read its type and the pixel size it declares, however much metadata comes first. */
const PHOTO_HEADER_BYTES = 1024 * 1024;

/** The photo's first bytes, for its type and pixel size; a file over the size cap is refused unread. */
async function headerOf(file: File) {
  return file.size > MAX_PHOTO_BYTES ? new Uint8Array() : new Uint8Array(await file.slice(0, PHOTO_HEADER_BYTES).arrayBuffer());
}

/** Why `file` could not be a photo of a request that already has `photosAlready`, or null. */
export async function photoRefusalOf(file: File, photosAlready: number) {
  return photoRefusal(file.size, await headerOf(file), photosAlready);
}

/**
 * Records a photo row only while the draft is still a draft of `uploaderId` with fewer than the
 * maximum photos: one INSERT … SELECT, so racing uploads cannot pass the cap between count and write.
 */
async function reservePhotoRow(
  db: Database,
  row: { id: string; consultationId: string; uploaderId: string; storageKey: string; contentType: string; sizeBytes: number },
  { photoKind, bodyArea }: PhotoDescription,
) {
  const result = await db.run(sql`
    INSERT INTO ${consultationFiles} (id, consultation_id, uploader_id, kind, storage_key, content_type, size_bytes, photo_kind, body_area, created_at)
    SELECT ${row.id}, ${consultations.id}, ${row.uploaderId}, 'photo', ${row.storageKey}, ${row.contentType}, ${row.sizeBytes}, ${photoKind}, ${bodyArea}, ${Date.now()}
    FROM ${consultations}
    WHERE ${consultations.id} = ${row.consultationId}
      AND ${consultations.patientId} = ${row.uploaderId}
      AND ${consultations.status} = 'awaiting_assets'
      AND (SELECT count(*) FROM ${consultationFiles}
           WHERE ${consultationFiles.consultationId} = ${row.consultationId} AND ${consultationFiles.kind} = 'photo' AND ${consultationFiles.deletedAt} IS NULL) < ${MAX_PHOTOS_PER_REQUEST}`);
  return result.meta.changes === 1;
}

/**
 * Checks and stores one photo of a draft, with what it shows. The row is reserved first (the cap holds
 * under any concurrency), then the object is written; the final submit waits until every row has its
 * object. Nothing is left behind when the photo is refused or the write fails.
 */
export async function storePhoto(
  db: Database,
  bucket: R2Bucket,
  { consultationId, uploaderId, description }: { consultationId: string; uploaderId: string; description: PhotoDescription },
  file: File,
): Promise<StoredPhoto> {
  const header = await headerOf(file);
  const refusal = photoRefusal(file.size, header, 0);
  if (refusal) return { ok: false, refusal, fileName: file.name };
  const contentType = sniffPhotoType(header)!;
  const id = crypto.randomUUID();
  const storageKey = `consultations/${consultationId}/photos/${id}`;
  if (!(await reservePhotoRow(db, { id, consultationId, uploaderId, storageKey, contentType, sizeBytes: file.size }, description))) {
    const full = (await countPhotos(db, consultationId)) >= MAX_PHOTOS_PER_REQUEST;
    return { ok: false, refusal: full ? "tooManyPhotos" : "alreadySubmitted", fileName: file.name };
  }
  await putRecordedPhoto(db, bucket, { id, storageKey, contentType }, file);
  return { ok: true, id };
}

/** Writes the object of a photo whose row is recorded; if the write fails, the row goes too. */
async function putRecordedPhoto(
  db: Database,
  bucket: R2Bucket,
  { id, storageKey, contentType }: { id: string; storageKey: string; contentType: string },
  file: File,
) {
  try {
    await bucket.put(storageKey, file.stream(), { httpMetadata: { contentType } });
  } catch (error) {
    await db.delete(consultationFiles).where(eq(consultationFiles.id, id));
    throw error;
  }
}

const chatImageKey = (consultationId: string, fileId: string) => `consultations/${consultationId}/chat/${fileId}`;

/**
 * Checks and stores a photo sent in a consultation's chat (the same checks as a request's photos: type
 * by its bytes, size, pixels). Nothing is left behind when it is refused or the write fails.
 */
export async function storeChatImage(
  db: Database,
  bucket: R2Bucket,
  consultationId: string,
  uploaderId: string,
  file: File,
): Promise<{ ok: true; id: string } | { ok: false; refusal: PhotoRefusal }> {
  const header = await headerOf(file);
  const refusal = photoRefusal(file.size, header, 0);
  if (refusal) return { ok: false, refusal };
  const contentType = sniffPhotoType(header)!;
  const id = crypto.randomUUID();
  const storageKey = chatImageKey(consultationId, id);
  await db
    .insert(consultationFiles)
    .values({ id, consultationId, uploaderId, kind: "chat_image", storageKey, contentType, sizeBytes: file.size });
  await putRecordedPhoto(db, bucket, { id, storageKey, contentType }, file);
  return { ok: true, id };
}

/** Removes a chat photo that never became a message (the consultation ended meanwhile). */
export async function removeChatImage(db: Database, bucket: R2Bucket, consultationId: string, fileId: string) {
  await bucket.delete(chatImageKey(consultationId, fileId));
  await db.delete(consultationFiles).where(and(eq(consultationFiles.id, fileId), eq(consultationFiles.kind, "chat_image")));
}

export async function listPhotos(db: Database, consultationId: string) {
  return db
    .select({
      id: consultationFiles.id,
      storageKey: consultationFiles.storageKey,
      contentType: consultationFiles.contentType,
      photoKind: consultationFiles.photoKind,
      bodyArea: consultationFiles.bodyArea,
    })
    .from(consultationFiles)
    .where(
      and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.kind, "photo"), isNull(consultationFiles.deletedAt)),
    )
    .orderBy(consultationFiles.createdAt);
}

/** Whether every photo row of the consultation has its object in R2, and how many photos there are. */
export async function everyPhotoStored(db: Database, bucket: R2Bucket, consultationId: string) {
  const photos = await listPhotos(db, consultationId);
  const heads = await Promise.all(photos.map((photo) => bucket.head(photo.storageKey)));
  return { allStored: heads.every((head) => head !== null), count: photos.length };
}

/**
 * Sets what a photo of the uploader's own draft shows; returns its draft, or null when there is no such
 * photo (another person's, a chat's, or one whose request was already sent).
 */
export async function describeDraftPhoto(db: Database, uploaderId: string, photoId: string, description: PhotoDescription) {
  const [described] = await db
    .update(consultationFiles)
    .set(description)
    .where(
      and(
        eq(consultationFiles.id, photoId),
        eq(consultationFiles.uploaderId, uploaderId),
        eq(consultationFiles.kind, "photo"),
        isNull(consultationFiles.deletedAt),
        inArray(
          consultationFiles.consultationId,
          db
            .select({ id: consultations.id })
            .from(consultations)
            .where(and(eq(consultations.patientId, uploaderId), eq(consultations.status, "awaiting_assets"))),
        ),
      ),
    )
    .returning({ draftId: consultationFiles.consultationId });
  return described?.draftId ?? null;
}

/** Removes a photo of a draft, from R2 and D1. */
export async function removeDraftPhoto(db: Database, bucket: R2Bucket, consultationId: string, photoId: string) {
  const [photo] = await db
    .select({ storageKey: consultationFiles.storageKey })
    .from(consultationFiles)
    .where(and(eq(consultationFiles.id, photoId), eq(consultationFiles.consultationId, consultationId)));
  if (!photo) return false;
  await bucket.delete(photo.storageKey);
  await db.delete(consultationFiles).where(eq(consultationFiles.id, photoId));
  return true;
}

/**
 * A stored photo and its bytes, for someone who may see its consultation (a doctor's or admin's look is
 * audited), and a chat's photo for its two people and for admins who opened it; else a 404 thrown.
 */
export async function openPhoto(context: AppLoadContext, request: Request, user: SessionUser, fileId: string | undefined) {
  const notFound = () => new Response("Not Found", { status: 404 });
  if (!isUuid(fileId)) throw notFound();
  const file = await context.db.query.consultationFiles.findFirst({ where: eq(consultationFiles.id, fileId) });
  if (!file || file.deletedAt) throw notFound();
  // An admin sees a chat's photos as part of the record they opened with a reason, not on their own.
  if (
    file.kind === "chat_image" &&
    user.role === "admin" &&
    !(await openingInForce(context.db, user.userId, file.consultationId, new Date()))
  )
    throw notFound();
  await requireConsultationAccess(
    context,
    request,
    user,
    file.consultationId,
    { action: "file.viewed", targetType: "file", targetId: file.id },
    file.kind === "chat_image" ? mayOpenChatImage : mayViewConsultation,
  );
  const object = await context.cloudflare.env.FILES.get(file.storageKey);
  if (!object) throw notFound();
  return { file, object };
}

export type PhotoDeletion = { ok: true; deleted: number } | { ok: false; reason: "not_completed" | "storage_failed" };

/**
 * The patient deletes every photo of a completed consultation (their request's photos and the chat's
 * images): the objects leave R2 for real first, and only then are the rows marked and the deletion
 * audited. Should R2 fail, nothing is marked and the patient is told; trying again is safe.
 */
export async function deleteConsultationPhotos(
  db: Database,
  bucket: R2Bucket,
  request: Request,
  consultation: { id: string; status: string; patientId: string },
): Promise<PhotoDeletion> {
  if (consultation.status !== "completed") return { ok: false, reason: "not_completed" };
  const files = await db
    .select({ id: consultationFiles.id, storageKey: consultationFiles.storageKey })
    .from(consultationFiles)
    .where(and(eq(consultationFiles.consultationId, consultation.id), isNull(consultationFiles.deletedAt)));
  if (files.length === 0) return { ok: true, deleted: 0 };
  try {
    // R2 deletes up to 1,000 keys a call; a consultation holds far fewer.
    await bucket.delete(files.map((file) => file.storageKey));
  } catch (error) {
    console.error(JSON.stringify({ event: "photo_deletion_failed", consultationId: consultation.id, error: String(error) }));
    return { ok: false, reason: "storage_failed" };
  }
  const now = new Date();
  await db.batch([
    db
      .update(consultationFiles)
      .set({ deletedAt: now })
      .where(and(eq(consultationFiles.consultationId, consultation.id), isNull(consultationFiles.deletedAt))),
    auditStatement(db, request, {
      action: "files.deleted",
      actorId: consultation.patientId,
      targetType: "consultation",
      targetId: consultation.id,
      details: { files: files.length },
    }),
  ]);
  return { ok: true, deleted: files.length };
}

/** How many photos and chat images of a consultation are still stored. */
export async function countStoredFiles(db: Database, consultationId: string) {
  const [row] = await db
    .select({ files: count() })
    .from(consultationFiles)
    .where(and(eq(consultationFiles.consultationId, consultationId), isNull(consultationFiles.deletedAt)));
  return row?.files ?? 0;
}
