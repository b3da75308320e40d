import type { ActionFunctionArgs } from "@remix-run/cloudflare";

import type { ChatImageAnswer } from "~/domain/chat";
import { requireRole } from "~/server/auth/guards.server";
import { sendChatImageFromUpload } from "~/server/chat.server";
import { postOnly } from "~/server/methods.server";

export const loader = postOnly;

// A photo sent in a consultation's chat by a page with JavaScript (downscaled in the browser first):
// multipart in, JSON out. The message itself reaches both pages through the room; without JavaScript
// the chat form posts to the consultation page instead.
export async function action(args: ActionFunctionArgs) {
  const user = await requireRole(args, "patient", "doctor");
  const sent = await sendChatImageFromUpload(args.context, args.request, user, args.params.id ?? "");
  if (sent.ok) return Response.json({ error: null } satisfies ChatImageAnswer);
  return Response.json({ error: sent.error } satisfies ChatImageAnswer, { status: sent.status });
}
