// The consultation chat's server side: what a consultation page shows of it (its words translated
// here, so no other page ships them), the form that sends a message without JavaScript, and the photo
// upload. Every message goes through the room's `postMessage`, which checks it exactly as it checks a
// socket's message; the checks here only keep strangers (404) and closed chats (409) from storing
// anything first.
import type { AppLoadContext } from "@remix-run/cloudflare";

import { CHAT_PAGE_MESSAGES, CHAT_SHOWN_PARAM, chatSendRefusal, chatTextOf, hasChat, senderRoleIn, shownChatMessages } from "~/domain/chat";
import { CHAT_REFUSALS, type ChatRefusal, type ChatSenderRole } from "~/domain/chat-message";
import { MAX_CHAT_MESSAGE_CHARS, MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS } from "~/domain/constants";
import { mayUseChat } from "~/domain/consultation-access";
import type { PhotoRefusal } from "~/domain/consultation-request";
import type { TextKey, TextMessage } from "~/i18n";
import { getTranslator } from "~/i18n.server";
import type { ChatMessage } from "~/realtime/protocol";
import type { ChatDraft } from "~/realtime/room-contract";
import type { SessionUser } from "~/server/auth/session.server";
import type { ConsultationRow } from "~/server/consultation-access.server";
import { findConsultationById } from "~/server/db/consultations.server";
import { removeChatImage, storeChatImage } from "~/server/files.server";
import { chatSnapshot, postChatMessage } from "~/server/rooms.server";

type Translate = Awaited<ReturnType<typeof getTranslator>>;
type FailureStatus = 400 | 409 | 413 | 422 | 429 | 503;
type Sent = { ok: true } | { ok: false; status: FailureStatus; error: TextMessage };

const REFUSAL_MESSAGES = {
  not_participant: "chat.errors.notParticipant",
  not_in_progress: "chat.errors.closed",
  empty: "chat.errors.empty",
  too_long: "chat.errors.tooLong",
  too_fast: "chat.errors.tooFast",
} as const satisfies Record<ChatRefusal, TextKey>;

const PHOTO_REFUSAL_MESSAGES = {
  photoEmpty: "chat.errors.imageEmpty",
  photoTooLarge: "chat.errors.imageTooLarge",
  photoWrongType: "chat.errors.imageWrongType",
  photoTooManyPixels: "chat.errors.imageTooManyPixels",
  tooManyPhotos: "chat.errors.imageWrongType",
} as const satisfies Record<PhotoRefusal, TextKey>;

const PHOTO_LIMITS = { megabytes: MAX_PHOTO_BYTES / 1024 / 1024, megapixels: MAX_PHOTO_PIXELS / 1_000_000 };
/** Room for the multipart framing around one photo. */
const MAX_CHAT_UPLOAD_BYTES = MAX_PHOTO_BYTES + 64 * 1024;
const SEND_FAILED: TextMessage = { key: "chat.errors.sendFailed" };

const refusalMessage = (refusal: ChatRefusal): TextMessage => ({
  key: REFUSAL_MESSAGES[refusal],
  values: refusal === "too_long" ? { max: MAX_CHAT_MESSAGE_CHARS.toLocaleString("en") } : undefined,
});
const REFUSAL_STATUSES = { empty: 400, too_long: 400, too_fast: 429, not_participant: 409, not_in_progress: 409 } as const satisfies Record<
  ChatRefusal,
  FailureStatus
>;
const refusalStatus = (refusal: ChatRefusal): FailureStatus => REFUSAL_STATUSES[refusal];

/** The chat's words as its page shows them; `otherName` heads the other person's messages. */
function chatTexts(t: Translate, otherName: string) {
  const you = t("chat.you");
  return {
    title: t("chat.title"),
    empty: t("chat.empty"),
    you,
    other: otherName,
    photoFromYou: t("chat.photoFrom", { name: you }),
    photoFromOther: t("chat.photoFrom", { name: otherName }),
    message: t("chat.message"),
    photo: t("chat.photo"),
    photoHint: t("chat.photoHint", PHOTO_LIMITS),
    enterHint: t("chat.enterHint"),
    earlier: t("chat.earlier"),
    send: t("chat.send"),
    sending: t("chat.sending"),
    ended: t("chat.ended"),
    errorTitle: t("chat.errors.title"),
    loadFailed: t("chat.errors.loadFailed"),
    sendFailed: t("chat.errors.sendFailed"),
    pending: t("offline.chatPending"),
    refusals: Object.fromEntries(
      CHAT_REFUSALS.map((refusal) => {
        const { key, values } = refusalMessage(refusal);
        return [refusal, t(key, values)];
      }),
    ) as Record<ChatRefusal, string>,
  };
}

/** The newest messages the page's address asks for, and the link to a page with a page more of them (null: none earlier). */
async function messagesShownAt(env: Env, consultationId: string, pageUrl: URL) {
  const shown = shownChatMessages(pageUrl.searchParams);
  const { messages, hasEarlier, online } = await chatSnapshot(env, consultationId, shown);
  const oldest = messages[0];
  if (!hasEarlier || !oldest) return { messages, online, earlierHref: null };
  const params = new URLSearchParams(pageUrl.searchParams);
  params.set(CHAT_SHOWN_PARAM, String(shown + CHAT_PAGE_MESSAGES));
  // The new page opens where the reader was: at the message that was the oldest shown.
  return { messages, online, earlierHref: `?${params}#${chatMessageAnchor(oldest.id)}` };
}

/** The id a message's line carries in the page, so a link can lead to it. */
const chatMessageAnchor = (messageId: number) => `message-${messageId}`;

/**
 * The consultation's chat as its page shows it, for its two people (null for anyone else, and before a
 * doctor accepted): the words (a page waiting for the payment shows the chat the moment it arrives),
 * and once it has a chat, the newest messages (as many as the address asks), who is connected and the
 * link to earlier ones.
 */
export async function chatForPage(
  env: Env,
  t: Translate,
  consultation: ConsultationRow,
  viewer: { userId: string; pageUrl: URL },
  otherName: string,
) {
  if (!senderRoleIn(viewer.userId, consultation)) return null;
  if (consultation.status !== "accepted_awaiting_payment" && !hasChat(consultation.status)) return null;
  const chat = {
    texts: chatTexts(t, otherName),
    messages: [] as ChatMessage[],
    online: [] as ChatSenderRole[],
    earlierHref: null as string | null,
    loadFailed: false,
  };
  if (!hasChat(consultation.status)) return chat;
  try {
    return { ...chat, ...(await messagesShownAt(env, consultation.id, viewer.pageUrl)) };
  } catch (error) {
    console.error(JSON.stringify({ event: "chat_load_failed", consultationId: consultation.id, error: String(error) }));
    return { ...chat, loadFailed: true };
  }
}

/**
 * The chat of a consultation as an admin reads it (read-only, for the record): the doctor's messages on
 * one side and the patient's on the other, each headed by their name. Null before there is a chat.
 */
export async function chatHistoryForAdmin(
  env: Env,
  t: Translate,
  consultation: ConsultationRow,
  names: { patient: string; doctor: string },
  pageUrl: URL,
) {
  if (!hasChat(consultation.status)) return null;
  const texts = {
    ...chatTexts(t, names.patient),
    you: names.doctor,
    photoFromYou: t("chat.photoFrom", { name: names.doctor }),
  };
  try {
    const { messages, earlierHref } = await messagesShownAt(env, consultation.id, pageUrl);
    return { texts, messages, earlierHref, loadFailed: false };
  } catch (error) {
    console.error(JSON.stringify({ event: "chat_load_failed", consultationId: consultation.id, error: String(error) }));
    return { texts, messages: [] as ChatMessage[], earlierHref: null, loadFailed: true };
  }
}

/** The consultation, if `user` is one of its two people (checked before anything is read or stored); else a 404 thrown. */
async function requireChatParty(context: AppLoadContext, user: SessionUser, consultationId: string) {
  const consultation = await findConsultationById(context.db, consultationId);
  if (!consultation || !mayUseChat(user, consultation)) throw new Response("Not Found", { status: 404 });
  return consultation;
}

async function post(env: Env, consultationId: string, draft: ChatDraft): Promise<Sent> {
  try {
    const outcome = await postChatMessage(env, consultationId, draft);
    if (outcome.ok) return { ok: true };
    if (outcome.reason === "not_found") return { ok: false, status: 409, error: SEND_FAILED };
    return { ok: false, status: refusalStatus(outcome.reason), error: refusalMessage(outcome.reason) };
  } catch (error) {
    console.error(JSON.stringify({ event: "chat_send_failed", consultationId, error: String(error) }));
    return { ok: false, status: 503, error: SEND_FAILED };
  }
}

/** Stores a photo and sends it as a message; a photo the room refuses (the chat closed meanwhile) is removed again. */
async function sendImage(context: AppLoadContext, user: SessionUser, consultation: ConsultationRow, file: File): Promise<Sent> {
  const { FILES } = context.cloudflare.env;
  const stored = await storeChatImage(context.db, FILES, consultation.id, user.userId, file);
  if (!stored.ok) {
    const status = stored.refusal === "photoTooLarge" ? 413 : 422;
    return { ok: false, status, error: { key: PHOTO_REFUSAL_MESSAGES[stored.refusal], values: PHOTO_LIMITS } };
  }
  const sent = await post(context.cloudflare.env, consultation.id, { senderId: user.userId, kind: "image", text: "", fileId: stored.id });
  if (!sent.ok) await removeChatImage(context.db, FILES, consultation.id, stored.id);
  return sent;
}

/**
 * The chat form as a page posts it without JavaScript (multipart: `text`, and an optional `image`).
 * Sent: the page redirects back to itself. Not sent: why, in the sender's language, and what was typed.
 */
export async function sendChatMessageFromForm(
  context: AppLoadContext,
  request: Request,
  user: SessionUser,
  consultationId: string,
  formData: FormData,
): Promise<{ ok: true } | { ok: false; status: FailureStatus; failure: { error: string; text: string } }> {
  const typed = formData.get("text");
  const text = typeof typed === "string" ? typed : "";
  const image = formData.get("image");
  const file = image && typeof image !== "string" && (image.size > 0 || image.name !== "") ? image : null;
  const fail = async (status: FailureStatus, { key, values }: TextMessage) => ({
    ok: false as const,
    status,
    failure: { error: (await getTranslator(request))(key, values), text },
  });

  const consultation = await requireChatParty(context, user, consultationId);
  const refusal = chatSendRefusal(consultation, user.userId);
  if (refusal) return fail(refusalStatus(refusal), refusalMessage(refusal));
  const words = text.trim() === "" ? null : chatTextOf(text);
  if (!words && !file) return fail(400, refusalMessage("empty"));
  if (words && !words.ok) return fail(400, refusalMessage(words.refusal));
  if (file) {
    const sent = await sendImage(context, user, consultation, file);
    if (!sent.ok) return fail(sent.status, sent.error);
  }
  if (words) {
    const sent = await post(context.cloudflare.env, consultation.id, { senderId: user.userId, kind: "text", text, fileId: null });
    if (!sent.ok) return fail(sent.status, sent.error);
  }
  return { ok: true };
}

/**
 * A photo uploaded by a page with JavaScript (multipart, one `image`); the message reaches both pages
 * through the room. Not sent: why, in the sender's language.
 */
export async function sendChatImageFromUpload(
  context: AppLoadContext,
  request: Request,
  user: SessionUser,
  consultationId: string,
): Promise<{ ok: true } | { ok: false; status: FailureStatus; error: string }> {
  const sent = await receiveImage(context, request, user, consultationId);
  if (sent.ok) return sent;
  return { ok: false, status: sent.status, error: (await getTranslator(request))(sent.error.key, sent.error.values) };
}

async function receiveImage(context: AppLoadContext, request: Request, user: SessionUser, consultationId: string): Promise<Sent> {
  const consultation = await requireChatParty(context, user, consultationId);
  const refusal = chatSendRefusal(consultation, user.userId);
  if (refusal) return { ok: false, status: refusalStatus(refusal), error: refusalMessage(refusal) };
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_CHAT_UPLOAD_BYTES) {
    return { ok: false, status: 413, error: { key: "chat.errors.imageTooLarge", values: PHOTO_LIMITS } };
  }
  let image: FormDataEntryValue | null;
  try {
    image = (await request.formData()).get("image");
  } catch {
    return { ok: false, status: 400, error: SEND_FAILED };
  }
  if (!image || typeof image === "string") return { ok: false, status: 400, error: refusalMessage("empty") };
  return sendImage(context, user, consultation, image);
}
