// A waiting request kept for one doctor for a while (a follow-up, for the doctor it continues): who
// else may see and take it is decided here, for the state machine, the pages and the doctors' lobby.

/** A waiting request's reservation (times as dates, or as ms since the epoch on the lobby's side). */
export interface Reservation {
  reservedForDoctorId: string | null;
  reservedUntil: Date | number | null;
}

/** Whether a waiting request is kept from `doctorId` at `now`: it waits for another doctor alone, and that time has not run out. */
export function isReservedForAnother(request: Reservation, doctorId: string, now: Date | number): boolean {
  if (request.reservedForDoctorId === null || request.reservedUntil === null) return false;
  return request.reservedForDoctorId !== doctorId && +request.reservedUntil > +now;
}
