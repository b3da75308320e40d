// What a chat message is made of: who sends one, its kinds, and why one may be refused (the lists the
// realtime protocol and the room's storage are written with).

/** Who writes in a consultation's chat: its patient and its doctor. */
export const CHAT_SENDER_ROLES = ["patient", "doctor"] as const;
export type ChatSenderRole = (typeof CHAT_SENDER_ROLES)[number];

export const CHAT_MESSAGE_KINDS = ["text", "image"] as const;
export type ChatMessageKind = (typeof CHAT_MESSAGE_KINDS)[number];

/** Why a message was not taken: the room tells the sender which. */
export const CHAT_REFUSALS = ["not_participant", "not_in_progress", "empty", "too_long", "too_fast"] as const;
export type ChatRefusal = (typeof CHAT_REFUSALS)[number];
