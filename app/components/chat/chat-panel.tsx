import { type FormEvent, type KeyboardEvent, lazy, Suspense, useId, useRef, useState } from "react";

import { FormAlert } from "~/components/form-basics";
import type { RoomLink } from "~/components/realtime/use-consultation-room";
import { useHydrated } from "~/components/use-hydrated";
import { CHAT_INTENTS } from "~/domain/chat";
import type { ChatSenderRole } from "~/domain/chat-message";
import { PHOTO_CONTENT_TYPES } from "~/domain/constants";
import type { ConsultationStatus } from "~/domain/consultation-status";
import type { ChatMessage } from "~/realtime/protocol";

import { ChatLog } from "./chat-log";
import type { ChatTexts } from "./chat-texts";
import type { LiveChat } from "./use-consultation-chat";

// The live half (socket, uploads) loads with the page's script; the server draws the rest.
const LiveChatLink = lazy(() => import("./live-chat").then((module) => ({ default: module.LiveChatLink })));

/**
 * A consultation's chat for one of its two people. Without JavaScript: the history as the server drew
 * it and a plain form posting to the page (text and an optional photo). With it: messages arrive live,
 * texts go over the page's room socket and photos are uploaded, through the same form. Once the
 * consultation is completed, the form gives way to "This consultation has ended."
 */
export function ChatPanel({
  consultationId,
  viewerRole,
  status,
  chat: { texts, messages, earlierHref, loadFailed },
  failure,
  room,
  live,
}: {
  consultationId: string;
  viewerRole: ChatSenderRole;
  status: ConsultationStatus;
  /** What the server read: the words, the history, and whether the room could be reached. */
  chat: { texts: ChatTexts; messages: ChatMessage[]; earlierHref: string | null; loadFailed: boolean };
  /** The form's last post without JavaScript, when it was not sent: why, and the words to show again. */
  failure: { error: string; text: string } | null;
  room: RoomLink;
  /** The page's room socket is open: messages come live. */
  live: boolean;
}) {
  const hydrated = useHydrated();
  const headingId = useId();
  const textId = useId();
  const hintId = useId();
  const enterHintId = useId();
  const log = useRef<HTMLDivElement>(null);
  const [liveChat, setLiveChat] = useState<LiveChat | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const formError = error ?? failure?.error ?? null;

  async function send(event: FormEvent<HTMLFormElement>) {
    // Until the live half has loaded, the form posts the page, as it does without JavaScript.
    if (!liveChat) return;
    event.preventDefault();
    const form = event.currentTarget;
    const text = form.elements.namedItem("text") as HTMLTextAreaElement;
    const image = form.elements.namedItem("image") as HTMLInputElement;
    const file = image.files?.[0];
    if (!file && text.value.trim() === "") return;
    setBusy(true);
    setError(null);
    let problem = file ? await liveChat.sendImage(file) : null;
    if (file && !problem) image.value = "";
    if (!problem && text.value.trim() !== "") {
      problem = await liveChat.sendText(text.value);
      if (!problem) text.value = "";
    }
    setBusy(false);
    setError(problem);
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }

  // On a computer (a fine pointer) Enter sends and Shift+Enter starts a new line; on a phone Enter is a
  // new line and the Send button sends. Never while an input method is composing a character.
  function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing || !liveChat) return;
    if (!window.matchMedia("(pointer: fine)").matches) return;
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3" data-testid="chat" data-live={liveChat ? "" : undefined}>
      <h2 id={headingId} className="font-bold">
        {texts.title}
      </h2>
      {loadFailed && !liveChat?.synced ? <FormAlert title={texts.errorTitle} message={texts.loadFailed} /> : null}
      <ChatLog
        ref={log}
        messages={liveChat?.messages ?? messages}
        pending={liveChat?.pending}
        earlierHref={earlierHref}
        viewerRole={viewerRole}
        texts={texts}
        labelledBy={headingId}
      />
      {status === "in_progress" ? (
        // A plain form: until the live half has loaded it posts the page, which comes back with the message in.
        <form method="post" encType="multipart/form-data" onSubmit={send} className="flex flex-col gap-2">
          <input type="hidden" name="intent" value={CHAT_INTENTS.send} />
          {formError ? <FormAlert title={texts.errorTitle} message={formError} /> : null}
          <label htmlFor={textId} className="font-medium">
            {texts.message}
          </label>
          <textarea
            id={textId}
            name="text"
            rows={2}
            className="textarea w-full"
            defaultValue={failure?.text}
            onKeyDown={sendOnEnter}
            data-testid="chat-input"
          />
          {liveChat ? (
            <p id={enterHintId} className="hidden text-xs text-base-content/80 pointer-fine:block">
              {texts.enterHint}
            </p>
          ) : null}
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex min-w-0 flex-1 flex-col gap-1">
              <span className="text-sm">{texts.photo}</span>
              <input
                type="file"
                name="image"
                accept={PHOTO_CONTENT_TYPES.join(",")}
                className="file-input file-input-sm w-full"
                aria-describedby={hintId}
                data-testid="chat-image"
              />
            </label>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? texts.sending : texts.send}
            </button>
          </div>
          <p id={hintId} className="text-xs text-base-content/80">
            {texts.photoHint}
          </p>
        </form>
      ) : status === "completed" ? (
        <p role="status" className="alert" data-testid="chat-ended">
          {texts.ended}
        </p>
      ) : null}
      {hydrated && live ? (
        <Suspense fallback={null}>
          <LiveChatLink consultationId={consultationId} room={room} initial={messages} texts={texts} onChange={setLiveChat} />
        </Suspense>
      ) : null}
    </section>
  );
}
