// Photos in R2: checked by their bytes, stored under generated keys, recorded in D1, and served only
// through the authorized resource route (routes/files.$fileId.ts).
import { and, count, eq, isNull, lt, sql } from "drizzle-orm";
import { consultationFiles, consultations } from "~/db/schema";
import { MAX_PHOTO_BYTES, MAX_PHOTOS_PER_REQUEST } from "~/domain/constants";
import { photoRefusal, sniffPhotoType, type PhotoRefusal } from "~/domain/consultation-request";
import type { Database } from "~/server/db/client.server";

export type StoredPhoto = { ok: true; id: string } | { ok: false; refusal: PhotoRefusal | "alreadySubmitted"; fileName: string };

export async function countPhotos(db: Database, consultationId: string) {
  const [row] = await db
    .select({ photos: count() })
    .from(consultationFiles)
    .where(and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.kind, "photo"), isNull(consultationFiles.deletedAt)));
  return row?.photos ?? 0;
}

/** The file's bytes, for reading its type and pixel size; a file over the size cap is refused unread. */
async function bytesOf(file: File) {
  return file.size > MAX_PHOTO_BYTES ? new Uint8Array() : new Uint8Array(await file.arrayBuffer());
}

/** Why `file` could not be a photo of a request that already has `photosAlready`, or null. */
export async function photoRefusalOf(file: File, photosAlready: number) {
  return photoRefusal(file.size, await bytesOf(file), photosAlready);
}

/**
 * Records a photo row only while the draft is still a draft of `uploaderId` with fewer than the
 * maximum photos: one INSERT … SELECT, so racing uploads cannot pass the cap between count and write.
 */
async function reservePhotoRow(db: Database, row: { id: string; consultationId: string; uploaderId: string; storageKey: string; contentType: string; sizeBytes: number }) {
  const photosOfDraft = sql`(SELECT count(*) FROM ${consultationFiles} WHERE ${consultationFiles.consultationId} = ${row.consultationId} AND ${consultationFiles.kind} = 'photo' AND ${consultationFiles.deletedAt} IS NULL)`;
  const inserted = await db
    .insert(consultationFiles)
    .select(
      db
        .select({
          id: sql<string>`${row.id}`.as("id"),
          consultationId: consultations.id,
          uploaderId: sql<string>`${row.uploaderId}`.as("uploader_id"),
          kind: sql<"photo">`'photo'`.as("kind"),
          storageKey: sql<string>`${row.storageKey}`.as("storage_key"),
          contentType: sql<string>`${row.contentType}`.as("content_type"),
          sizeBytes: sql<number>`${row.sizeBytes}`.as("size_bytes"),
          createdAt: sql<Date>`${Date.now()}`.as("created_at"),
          deletedAt: sql<null>`NULL`.as("deleted_at"),
        })
        .from(consultations)
        .where(
          and(
            eq(consultations.id, row.consultationId),
            eq(consultations.patientId, row.uploaderId),
            eq(consultations.status, "awaiting_assets"),
            lt(photosOfDraft, MAX_PHOTOS_PER_REQUEST),
          ),
        ),
    )
    .returning({ id: consultationFiles.id });
  return inserted.length === 1;
}

/**
 * Checks and stores one photo of a draft. The row is reserved first (the cap holds under any
 * concurrency), then the object is written; the final submit waits until every row has its object.
 * Nothing is left behind when the photo is refused or the write fails.
 */
export async function storePhoto(db: Database, bucket: R2Bucket, consultationId: string, uploaderId: string, file: File): Promise<StoredPhoto> {
  const bytes = await bytesOf(file);
  const refusal = photoRefusal(file.size, bytes, 0);
  if (refusal) return { ok: false, refusal, fileName: file.name };
  const contentType = sniffPhotoType(bytes)!;
  const id = crypto.randomUUID();
  const storageKey = `consultations/${consultationId}/photos/${id}`;
  if (!(await reservePhotoRow(db, { id, consultationId, uploaderId, storageKey, contentType, sizeBytes: file.size }))) {
    const full = (await countPhotos(db, consultationId)) >= MAX_PHOTOS_PER_REQUEST;
    return { ok: false, refusal: full ? "tooManyPhotos" : "alreadySubmitted", fileName: file.name };
  }
  try {
    await bucket.put(storageKey, bytes, { httpMetadata: { contentType } });
  } catch (error) {
    await db.delete(consultationFiles).where(eq(consultationFiles.id, id));
    throw error;
  }
  return { ok: true, id };
}

export async function listPhotos(db: Database, consultationId: string) {
  return db
    .select({ id: consultationFiles.id, storageKey: consultationFiles.storageKey, contentType: consultationFiles.contentType })
    .from(consultationFiles)
    .where(and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.kind, "photo"), isNull(consultationFiles.deletedAt)))
    .orderBy(consultationFiles.createdAt);
}

/** Whether every photo row of the consultation has its object in R2, and how many photos there are. */
export async function everyPhotoStored(db: Database, bucket: R2Bucket, consultationId: string) {
  const photos = await listPhotos(db, consultationId);
  const heads = await Promise.all(photos.map((photo) => bucket.head(photo.storageKey)));
  return { allStored: heads.every((head) => head !== null), count: photos.length };
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
