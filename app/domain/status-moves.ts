// A table's allowed status moves (docs/decisions/0046), as the consultation's state machine has its
// own: each writer checks the move it is about to build against its table, so a move the table does
// not list is a bug that fails loudly, never a row quietly written.

/** The moves of one table: for each status, the statuses it may move to. */
export type StatusMoves<Status extends string> = Readonly<Record<Status, ReadonlyArray<Status>>>;

/** Throws unless every status in `from` may move to `to` (a programming error, not a user's). */
export function assertMove<Status extends string>(
  table: string,
  moves: StatusMoves<Status>,
  from: ReadonlyArray<Status>,
  to: Status,
): void {
  const refused = from.filter((status) => !moves[status].includes(to));
  if (from.length === 0 || refused.length > 0) throw new Error(`${table}: no move from ${refused.join(", ") || "nothing"} to ${to}`);
}
