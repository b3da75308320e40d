// What the sandbox answers a call in Chapa's formats: a status and a JSON body, and whether the answer
// is lost on its way back (a call that timed out after Chapa took it).
export interface SandboxAnswer {
  status: number;
  body: unknown;
  lostAnswer?: boolean;
}

/** Chapa's refusal: `{ message, status: "failed", data: null }`. */
export const sandboxFailure = (status: number, message: string): SandboxAnswer => ({
  status,
  body: { message, status: "failed", data: null },
});
