import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

import { isLanguage } from "~/domain/languages";
import { webAppManifest } from "~/domain/web-app-manifest";
import { detectLanguage, getTranslatorFor } from "~/i18n.server";

// The web app manifest (what a phone needs to install Qoda), in the reader's language: root links it
// with `?lang=` (a browser fetches a manifest without cookies); opened without it, the phone's own
// language preference decides. Public.
export async function loader({ request }: LoaderFunctionArgs) {
  const asked = new URL(request.url).searchParams.get("lang");
  const language = isLanguage(asked) ? asked : await detectLanguage(request);
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
      "Cache-Control": "public, max-age=3600",
      Vary: "Accept-Language",
    },
  });
}
