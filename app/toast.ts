// The shape of a toast, shared by the server that sets it and the component that shows it.
import { z } from "zod";

import type { TextKey } from "~/i18n";

export const ToastSchema = z.object({
  kind: z.enum(["success", "error", "info"]),
  /** Translation keys, so the toast speaks the language of the page that shows it. */
  title: z.custom<TextKey>((value) => typeof value === "string"),
  description: z.custom<TextKey>((value) => typeof value === "string").optional(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Toast = z.infer<typeof ToastSchema>;

/** A toast as the page shows it: translated by the server in the reader's language. */
export interface ShownToast {
  kind: Toast["kind"];
  title: string;
  description: string | null;
}
