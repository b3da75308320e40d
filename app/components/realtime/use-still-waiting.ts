import { useLobbyQueue } from "./lobby-queue";

/**
 * For a doctor reading a waiting request: false as soon as the lobby says it left the queue (another
 * doctor took it, a doctor declined it, the patient withdrew), so the page stops offering Accept. It
 * reads the queue the page's one lobby socket hears (the bell's); until that has heard, the server's
 * word (`waiting`) stands.
 */
export function useStillWaiting(consultationId: string, waiting: boolean) {
  const queue = useLobbyQueue();
  if (!waiting || queue === null) return waiting;
  return queue.some((request) => request.id === consultationId);
}
