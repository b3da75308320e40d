import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";

import { getTranslator, pageTitle } from "~/i18n.server";
import { readFormData } from "~/server/form-body.server";
import { requireStandIns } from "~/server/stand-ins.server";
import { telegramWebhook } from "~/server/telegram/bot.server";
import { blockBotInStandIn, pressStart } from "~/server/telegram/stand-in-api.server";

function standInBot(context: LoaderFunctionArgs["context"]) {
  requireStandIns(context);
  const bot = context.config.telegram;
  if (!bot?.standIn) throw new Response("Not Found", { status: 404 });
  return bot;
}

// Development and tests only: the bot's chat as Telegram would open it from a deep link
// (t.me/<bot>?start=<token>). Pressing Start sends the bot the update Telegram would; a chat can also
// block the bot, after which the stand-in refuses to deliver to it.
export async function loader({ context, request }: LoaderFunctionArgs) {
  const bot = standInBot(context);
  const t = await getTranslator(request);
  const words = {
    title: t("telegram.standIn.title", { bot: bot.username }),
    intro: t("telegram.standIn.intro"),
    chat: t("telegram.standIn.chat"),
    start: t("telegram.standIn.start"),
    stop: t("telegram.standIn.stop"),
    block: t("telegram.standIn.block"),
  };
  const payload = new URL(request.url).searchParams.get("start") ?? "";
  // A new chat for each visit unless the tester types one: each deep link is someone's phone.
  const chatId = 100_000_000 + Math.floor(Math.random() * 900_000_000);
  return { title: pageTitle(words.title), words, payload, chatId };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

export async function action({ context, request }: ActionFunctionArgs) {
  const bot = standInBot(context);
  const form = await readFormData(request);
  const chatId = Number(form.get("chatId"));
  if (!Number.isSafeInteger(chatId) || chatId <= 0) throw new Response("Bad Request: chat", { status: 400 });
  const intent = form.get("intent");
  if (intent === "block") await blockBotInStandIn(context.db, String(chatId));
  else {
    const payload = String(form.get("payload") ?? "");
    await pressStart(context.db, bot, telegramWebhook(context.db, bot), { chatId, payload, command: intent === "stop" ? "stop" : "start" });
  }
  return redirect("/dev/outbox#telegram");
}

export default function DevTelegramStart() {
  const { words, payload, chatId } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-8">
      <h1 className="text-2xl font-bold">{words.title}</h1>
      <p className="text-base-content/80">{words.intro}</p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="payload" value={payload} />
        <label className="flex flex-col gap-1">
          <span className="font-medium">{words.chat}</span>
          <input name="chatId" className="input w-full" inputMode="numeric" defaultValue={chatId} />
        </label>
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="start" className="btn btn-primary">
            {words.start}
          </button>
          <button type="submit" name="intent" value="stop" className="btn">
            {words.stop}
          </button>
          <button type="submit" name="intent" value="block" className="btn btn-ghost">
            {words.block}
          </button>
        </div>
      </Form>
    </section>
  );
}
