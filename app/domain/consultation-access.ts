// Who may see a consultation and who may listen in its rooms: the one rule pages, photos and both
// rooms follow (docs/decisions/0012-threat-model.md).
import type { ConsultationStatus } from "./consultation-status";
import { isReservedForAnother, type Reservation } from "./reservations";
import type { DoctorStatus, Role } from "./roles";

export interface Viewer {
  userId: string;
  role: Role;
  doctorStatus: DoctorStatus | null;
}

export interface ConsultationParties extends Partial<Reservation> {
  patientId: string;
  doctorId: string | null;
  status: ConsultationStatus;
}

const isActiveDoctor = (viewer: Viewer) => viewer.role === "doctor" && viewer.doctorStatus === "active";

/** Whether a waiting request is, at `now`, kept for a doctor other than `doctorId` (a follow-up for its own doctor). */
const keptFrom = (consultation: ConsultationParties, doctorId: string, now: Date) =>
  isReservedForAnother(
    { reservedForDoctorId: consultation.reservedForDoctorId ?? null, reservedUntil: consultation.reservedUntil ?? null },
    doctorId,
    now,
  );

/**
 * Its patient; any active doctor while it waits for one (to decide on it), unless it is kept for
 * another doctor for now; its assigned doctor while they are active; admins (audited by the caller).
 * Nobody else learns it exists.
 */
export function mayViewConsultation(viewer: Viewer, consultation: ConsultationParties, now = new Date()): boolean {
  switch (viewer.role) {
    case "patient":
      return consultation.patientId === viewer.userId;
    case "doctor":
      return (
        isActiveDoctor(viewer) &&
        ((consultation.status === "pending" && !keptFrom(consultation, viewer.userId, now)) || consultation.doctorId === viewer.userId)
      );
    case "admin":
      return true;
  }
}

/** A consultation's room is for the two people in it: its patient and its assigned doctor. */
export function takesPartIn(userId: string, consultation: Pick<ConsultationParties, "patientId" | "doctorId">): boolean {
  return userId === consultation.patientId || userId === consultation.doctorId;
}

/** A consultation's chat, its photos included, is for its two people alone (not admins, not other doctors). */
export function mayUseChat(viewer: Viewer, consultation: ConsultationParties): boolean {
  return takesPartIn(viewer.userId, consultation) && mayViewConsultation(viewer, consultation);
}

/** A photo sent in a chat: its two people, and admins reading the record (the caller checks their opening); never other doctors. */
export function mayOpenChatImage(viewer: Viewer, consultation: ConsultationParties): boolean {
  return viewer.role === "admin" || mayUseChat(viewer, consultation);
}

/** The doctors' lobby (waiting requests as they come and go) is for active doctors. */
export function mayJoinLobby(viewer: Viewer): boolean {
  return isActiveDoctor(viewer);
}

/**
 * An active doctor who can no longer see a request that once waited (another doctor took it, it was
 * declined or withdrawn) is told why rather than "not found": they saw it in the queue.
 */
export function onceWaitingFor(viewer: Viewer, consultation: ConsultationParties): boolean {
  return isActiveDoctor(viewer) && consultation.status !== "awaiting_assets" && !mayViewConsultation(viewer, consultation);
}
