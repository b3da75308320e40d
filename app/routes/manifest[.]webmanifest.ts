import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { webAppManifest } from "~/domain/web-app-manifest";
import { detectLanguage, getTranslatorFor } from "~/i18n.server";

// The web app manifest (what a phone needs to install Qoda), in the reader's language: root links it to
// be fetched with cookies, so the language they chose decides; without one, the phone's preference. Public.
export async function loader({ request }: LoaderFunctionArgs) {
  const language = await detectLanguage(request);
  const t = await getTranslatorFor(language);
  const manifest = webAppManifest(language, {
    name: t("installableApp.name"),
    shortName: t("installableApp.shortName"),
    description: t("installableApp.description"),
    newConsultation: t("installableApp.newConsultation"),
    newConsultationDescription: t("installableApp.newConsultationDescription"),
    myConsultations: t("installableApp.myConsultations"),
    myConsultationsDescription: t("installableApp.myConsultationsDescription"),
  });
  return Response.json(manifest, {
    headers: {
      "Content-Type": "application/manifest+json; charset=utf-8",
      // Its language follows the reader's cookie: asked again each time, never shared between readers.
      "Cache-Control": "private, no-cache",
      Vary: "Cookie, Accept-Language",
    },
  });
}
