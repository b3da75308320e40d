// What the admin dashboard's action answers when it made no account, shared by its server half that
// answers (app/routes/admin.dashboard.server.ts) and the forms that show it, as app/toast.ts is.
import type { SubmissionResult } from "@conform-to/react";

import type { TextKey } from "~/i18n";

export interface StaffFormAnswer {
  intent: string;
  result: SubmissionResult<string[]>;
  failure: TextKey;
  reason: TextKey;
}
