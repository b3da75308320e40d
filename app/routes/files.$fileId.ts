import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";

import { consultationFiles } from "~/db/schema";
import { isUuid } from "~/domain/ids";
import { requireUser } from "~/server/auth/guards.server";
import { requireConsultationAccess } from "~/server/consultation-access.server";

// A stored photo, only for those who may see its consultation; never cached, never sniffed, and every
// read by a doctor or an admin is in the audit log.
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const { context, request, params } = args;
  if (!isUuid(params.fileId)) throw new Response("Not Found", { status: 404 });
  const file = await context.db.query.consultationFiles.findFirst({ where: eq(consultationFiles.id, params.fileId) });
  if (!file || file.deletedAt) throw new Response("Not Found", { status: 404 });
  await requireConsultationAccess(context, request, user, file.consultationId, {
    action: "file.viewed",
    targetType: "file",
    targetId: file.id,
  });
  const object = await context.cloudflare.env.FILES.get(file.storageKey);
  if (!object) throw new Response("Not Found", { status: 404 });
  const extension = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" }[file.contentType] ?? "bin";
  return new Response(object.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.sizeBytes),
      "Content-Disposition": `inline; filename="photo-${file.id.slice(0, 8)}.${extension}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
