/** The intake as a doctor or an admin reads it, worded on the server (app/server/intake-words.server.ts). */
export interface IntakeView {
  heading: string;
  triage: string;
  rows: { label: string; text: string }[];
}
