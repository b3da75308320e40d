// The scheduled sweep deletes drafts abandoned before they were submitted (found by findAbandonedDrafts).
import { and, eq, inArray } from "drizzle-orm";

import { consultations } from "~/db/schema";
import { inSlices } from "~/server/db/chunks.server";
import type { Database } from "~/server/db/client.server";

/** Deletes drafts that are still drafts; their file rows go with them (ON DELETE CASCADE). */
export async function deleteDrafts(db: Database, ids: string[]) {
  let deletedCount = 0;
  for (const slice of inSlices(ids)) {
    const deleted = await db
      .delete(consultations)
      .where(and(inArray(consultations.id, slice), eq(consultations.status, "awaiting_assets")))
      .returning({ id: consultations.id });
    deletedCount += deleted.length;
  }
  return deletedCount;
}
