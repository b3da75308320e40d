import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { requireUser } from "~/server/auth/guards.server";
import { openPhoto } from "~/server/files.server";

// A stored photo, only for those who may see its consultation; never cached, never sniffed, and every
// read by a doctor or an admin is in the audit log.
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const { file, object } = await openPhoto(args.context, args.request, user, args.params.fileId);
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
