// The Worker entry, kept thin: unused methods, oversize bodies and cross-site posts refused, rooms under /parties/*,
// everything else to Remix, security headers on every response, and the cron trigger's housekeeping.
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
import { routePartykitRequest } from "partyserver";

import { rememberRequestedLanguage } from "~/i18n.server";
import { refuseOversizeBody } from "~/server/body-cap.server";
import { withTrustedClientAddress } from "~/server/client-address.server";
import { createDatabase } from "~/server/db/client.server";
import { bookmarkCookieAfter, databaseSessionFor } from "~/server/db/read-replicas.server";
import { loadConfig } from "~/server/env.server";
import { HousekeepingFailed, runHousekeeping } from "~/server/jobs.server";
import { createLoadContext } from "~/server/load-context.server";
import { refuseUnusedMethod } from "~/server/methods.server";
import { checkRoomAccess } from "~/server/room-access.server";
import { refuseCrossSiteMutation } from "~/server/same-origin.server";
import { createNonce, withSecurityHeaders } from "~/server/security-headers.server";

// @ts-expect-error: exists once `remix vite:build` has run (npm start and npm test build first).
import * as remixBuild from "./build/server/index.js";

export { ConsultationRoom } from "./party/consultation";
export { DoctorsLobby } from "./party/lobby";

const handleRemixRequest = createRequestHandler(remixBuild as unknown as ServerBuild);

export default {
  async fetch(incoming, env, ctx) {
    const config = loadConfig(env);
    const request = withTrustedClientAddress(incoming, config.trustsClientAddressHeader);
    const nonce = createNonce();
    // What Remix reads and writes goes through one D1 session: admin pages and dashboards may read from a replica.
    const d1 = await databaseSessionFor(env.DB, request, config.SESSION_SECRET);
    // Drizzle is built only for a room's request: building it (its schema's relations) costs each request garbage.
    const guardRoom = (req: Request, room: { className: string; name: string }) =>
      checkRoomAccess(createDatabase(env.DB), req, room, new Date());

    const response =
      (await refuseUnusedMethod(request)) ??
      (await refuseOversizeBody(request)) ??
      (await refuseCrossSiteMutation(request)) ??
      (await routePartykitRequest(request, env, { onBeforeConnect: guardRoom, onBeforeRequest: guardRoom })) ??
      (await handleRemixRequest(request, createLoadContext(env, ctx, nonce, d1)));
    // A `?lng=` choice is remembered on any answer, redirects included (a page may send its reader on).
    const languageCookie = await rememberRequestedLanguage(request);
    const secured = withSecurityHeaders(response, nonce, { production: config.APP_ENV === "production" });
    if (secured.status !== 101) {
      if (languageCookie) secured.headers.append("Set-Cookie", languageCookie);
      const bookmarkCookie = await bookmarkCookieAfter(request, d1, config.SESSION_SECRET);
      if (bookmarkCookie) secured.headers.append("Set-Cookie", bookmarkCookie);
    }
    return secured;
  },

  async scheduled(controller, env, ctx) {
    const logReport = (report: object) => console.log(JSON.stringify({ job: "housekeeping", cron: controller.cron, ...report }));
    // A step that failed is logged by name and the rest still run; the rejection then marks the invocation failed.
    ctx.waitUntil(
      runHousekeeping(env, new Date(controller.scheduledTime)).then(logReport, (error: unknown) => {
        if (error instanceof HousekeepingFailed) logReport({ ...error.report, failedSteps: error.steps });
        throw error;
      }),
    );
  },
} satisfies ExportedHandler<Env>;
