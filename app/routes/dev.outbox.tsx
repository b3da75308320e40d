import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Fragment } from "react";

import { getTranslator, pageTitle } from "~/i18n.server";
import { latestOutboxMessages } from "~/server/mail/mailer.server";
import { requireStandIns } from "~/server/stand-ins.server";
import { latestTelegramStandInMessages } from "~/server/telegram/stand-in-api.server";

const SHOWN_MESSAGES = 100;

// Development and tests only (404 in production): every email the app sent, newest first, with its links.
export async function loader({ context, request }: LoaderFunctionArgs) {
  requireStandIns(context);
  const [messages, telegramMessages] = await Promise.all([
    latestOutboxMessages(context.db, SHOWN_MESSAGES),
    latestTelegramStandInMessages(context.db, SHOWN_MESSAGES),
  ]);
  const t = await getTranslator(request);
  // Worded here: the page ships none of its texts.
  const words = {
    title: t("devTools.outbox.title"),
    intro: t("devTools.outbox.intro"),
    empty: t("devTools.outbox.empty"),
    telegram: t("telegram.standIn.outbox"),
    telegramChat: t("telegram.standIn.chat"),
  };
  return { title: pageTitle(words.title), words, messages, telegramMessages };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }];

/** The message text with its URLs as links. */
function LinkedText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(https?:\/\/\S+)/g).map((part, index) =>
        /^https?:\/\//.test(part) ? (
          <a key={index} href={part} className="link link-primary break-all" data-testid="outbox-link">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

export default function DevOutbox() {
  const { messages, telegramMessages, words } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-8">
      <h1 className="text-2xl font-bold">{words.title}</h1>
      <p className="text-base-content/80">{words.intro}</p>
      {messages.length === 0 ? <p>{words.empty}</p> : null}
      <ol className="flex flex-col gap-3">
        {messages.map((message) => (
          <li key={message.id} className="card border border-base-300" data-testid="outbox-message" data-to={message.toEmail}>
            <div className="card-body gap-2 p-4">
              <p className="text-sm text-base-content/70">
                {message.toEmail} · {new Date(message.createdAt).toISOString().replace("T", " ").slice(0, 19)}
              </p>
              <h2 className="font-bold">{message.subject}</h2>
              <p className="whitespace-pre-wrap text-sm">
                <LinkedText text={message.textBody} />
              </p>
            </div>
          </li>
        ))}
      </ol>
      <h2 id="telegram" className="text-xl font-bold">
        {words.telegram}
      </h2>
      {telegramMessages.length === 0 ? <p>{words.empty}</p> : null}
      <ol className="flex flex-col gap-3">
        {telegramMessages.map((message) => (
          <li key={message.id} className="card border border-base-300" data-testid="telegram-message" data-chat={message.chatId}>
            <div className="card-body gap-2 p-4">
              <p className="text-sm text-base-content/70">
                {words.telegramChat} {message.chatId} · {new Date(message.createdAt).toISOString().replace("T", " ").slice(0, 19)}
              </p>
              <p className="whitespace-pre-wrap text-sm">
                <LinkedText text={message.text} />
              </p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
