// The rooms' names and close codes, without the protocol's schemas: a page that only listens for news
// (the rating page) loads these alone.

/** The rooms: their party name in URLs (/parties/<party>/<name>) and their Durable Object class. */
export const ROOMS = {
  /** The one room active doctors join for waiting requests. */
  lobby: { party: "doctors-lobby", className: "DoctorsLobby", name: "main" },
  /** One per consultation, named by its id: its patient and its doctor. */
  consultation: { party: "consultation-room", className: "ConsultationRoom" },
} as const;

/** Close codes rooms use; the browser reads them to know why its socket ended. */
export const ROOM_CLOSE_CODES = {
  /** The session that opened the socket has ended (signed out, expired, deactivated…): do not reconnect. */
  sessionEnded: 4001,
  /** The person no longer takes part (a doctor whose accepted request went back to the queue). */
  noLongerParticipant: 4003,
} as const;
