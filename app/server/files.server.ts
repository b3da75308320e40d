// Photos in R2: checked by their bytes, stored under generated keys, recorded in D1, and served only
// through the authorized resource route (routes/files.$fileId.ts).
import { and, count, eq, isNull } from "drizzle-orm";
import { consultationFiles } from "~/db/schema";
import { photoRefusal, sniffPhotoType, type PhotoRefusal } from "~/domain/consultation-request";
import type { Database } from "~/server/db/client.server";

const SNIFF_BYTES = 16;

export type StoredPhoto = { ok: true; id: string } | { ok: false; refusal: PhotoRefusal; fileName: string };

export async function countPhotos(db: Database, consultationId: string) {
  const [row] = await db
    .select({ photos: count() })
    .from(consultationFiles)
    .where(and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.kind, "photo"), isNull(consultationFiles.deletedAt)));
  return row?.photos ?? 0;
}

async function headOf(file: File) {
  return new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
}

/** Why `file` could not be a photo of a request that already has `photosAlready`, or null. */
export async function photoRefusalOf(file: File, photosAlready: number) {
  return photoRefusal(file.size, await headOf(file), photosAlready);
}

/** Checks and stores one photo of a consultation; nothing is written when it is refused. */
export async function storePhoto(db: Database, bucket: R2Bucket, consultationId: string, uploaderId: string, file: File): Promise<StoredPhoto> {
  const head = await headOf(file);
  const refusal = photoRefusal(file.size, head, await countPhotos(db, consultationId));
  if (refusal) return { ok: false, refusal, fileName: file.name };
  const contentType = sniffPhotoType(head)!;
  const id = crypto.randomUUID();
  const storageKey = `consultations/${consultationId}/photos/${id}`;
  await bucket.put(storageKey, file.stream(), { httpMetadata: { contentType } });
  try {
    await db.insert(consultationFiles).values({ id, consultationId, uploaderId, kind: "photo", storageKey, contentType, sizeBytes: file.size });
  } catch (error) {
    await bucket.delete(storageKey);
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
