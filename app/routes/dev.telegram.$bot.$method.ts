import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";

import { postOnly } from "~/server/methods.server";
import { requireStandIns } from "~/server/stand-ins.server";
import { answerStandInApi } from "~/server/telegram/stand-in-api.server";

export function loader(args: LoaderFunctionArgs) {
  requireStandIns(args.context);
  return postOnly(args);
}

// Development and tests only: Telegram's Bot API (POST /bot<token>/<method>), for a client outside
// the Worker; the Worker's own bot answers through the same code without a request.
export async function action({ request, context }: ActionFunctionArgs) {
  requireStandIns(context);
  const bot = context.config.telegram;
  if (!bot?.standIn) throw new Response("Not Found", { status: 404 });
  return answerStandInApi(context.db, bot, request);
}
