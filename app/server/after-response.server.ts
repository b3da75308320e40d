import type { AppLoadContext } from "@remix-run/cloudflare";

/**
 * Work done after the answer has gone out, so that how long the answer took says nothing about it
 * (whether an account exists, whether a mail was sent). A failure is logged with the task's name.
 */
export function afterResponse(context: AppLoadContext, task: string, work: () => Promise<unknown>) {
  // Started on a later turn of the event loop, once the answer is on its way: heavy work (a password
  // hash) started at once would hold the isolate before the answer leaves.
  const answered = new Promise((resolve) => setTimeout(resolve, 0));
  context.cloudflare.ctx.waitUntil(
    answered
      .then(work)
      .catch((error: unknown) => console.error(JSON.stringify({ event: "background_task_failed", task, error: String(error) }))),
  );
}
