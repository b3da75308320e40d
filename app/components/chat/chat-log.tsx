import { Link } from "@remix-run/react";
import { forwardRef } from "react";
import { useTranslation } from "react-i18next";

import { PhotoViewer } from "~/components/photo-viewer";
import type { ChatSenderRole } from "~/domain/chat-message";
import { formatDay, formatTime } from "~/domain/dates";
import type { ChatMessage } from "~/realtime/protocol";

import type { ChatTexts } from "./chat-texts";

/**
 * The messages, oldest first, in a panel of fixed height that opens at the newest (a reversed column:
 * no script needed). New ones are announced politely (a log region: additions only, never the whole
 * history again). A date line starts each day. A long chat shows its newest messages, with a link to
 * a page with earlier ones at the top (`earlierHref`, null when there are none).
 */
export const ChatLog = forwardRef<
  HTMLDivElement,
  {
    messages: ChatMessage[];
    /** Texts typed offline, not yet confirmed by the room. */
    pending?: Array<{ clientId: string; text: string; refusal?: string }>;
    earlierHref: string | null;
    viewerRole: ChatSenderRole;
    texts: ChatTexts;
    labelledBy: string;
  }
>(function ChatLog({ messages, pending, earlierHref, viewerRole, texts, labelledBy }, ref) {
  const { i18n } = useTranslation();
  return (
    <div
      ref={ref}
      role="log"
      aria-live="polite"
      aria-labelledby={labelledBy}
      // Scrollable, so reachable by keyboard.
      tabIndex={0}
      className="flex h-96 flex-col-reverse overflow-y-auto rounded-box border border-base-300 bg-base-100 p-3"
      data-testid="chat-log"
    >
      <ol className="flex flex-col gap-1">
        {earlierHref ? (
          <li className="text-center">
            <Link to={earlierHref} preventScrollReset className="link text-sm">
              {texts.earlier}
            </Link>
          </li>
        ) : null}
        {messages.length === 0 ? <li className="py-8 text-center text-sm text-base-content/80">{texts.empty}</li> : null}
        {messages.map((message, index) => {
          const own = message.senderRole === viewerRole;
          const sender = own ? texts.you : texts.other;
          const date = formatDay(message.sentAt, i18n.language);
          const newDay = index === 0 || formatDay(messages[index - 1]!.sentAt, i18n.language) !== date;
          return (
            <li
              key={message.id}
              id={`message-${message.id}`}
              data-testid="chat-message"
              data-own={own ? "" : undefined}
              data-kind={message.fileId ? "image" : "text"}
            >
              {newDay ? <p className="my-2 text-center text-xs text-base-content/80">{date}</p> : null}
              <div className={`chat ${own ? "chat-end" : "chat-start"}`}>
                <p className="chat-header gap-2 text-xs text-base-content/80">
                  <span className="font-semibold">{sender}</span>
                  <time dateTime={new Date(message.sentAt).toISOString()}>{formatTime(message.sentAt)}</time>
                </p>
                <div className={`chat-bubble ${own ? "chat-bubble-primary" : ""} whitespace-pre-wrap break-words`}>
                  {message.fileId ? (
                    <PhotoViewer
                      photoIds={[message.fileId]}
                      describe={() => (own ? texts.photoFromYou : texts.photoFromOther)}
                      listClassName="w-40 max-w-full"
                    />
                  ) : (
                    message.text
                  )}
                </div>
              </div>
            </li>
          );
        })}
        {pending?.map(({ clientId, text, refusal }) => (
          <li key={clientId} className="chat chat-end" data-testid="chat-pending">
            <div className="chat-bubble whitespace-pre-wrap break-words">{text}</div>
            <p className="chat-footer text-xs">{refusal ?? texts.pending}</p>
          </li>
        ))}
      </ol>
    </div>
  );
});
