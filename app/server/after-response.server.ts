import type { AppLoadContext } from "@remix-run/cloudflare";

/**
 * Work done after the answer has gone out, so that how long the answer took says nothing about it
 * (whether an account exists, whether a mail was sent). A failure is logged with the task's name.
 */
export function afterResponse(context: AppLoadContext, task: string, work: () => Promise<unknown>) {
  context.cloudflare.ctx.waitUntil(
    work().catch((error: unknown) => console.error(JSON.stringify({ event: "background_task_failed", task, error: String(error) }))),
  );
}
