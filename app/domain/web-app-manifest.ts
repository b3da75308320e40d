// The web app manifest: what a phone needs to install Qoda on its home screen (issue 18).
import type { Language } from "./languages";

/** The brand colour (the theme's primary, public/favicon.svg's background): the installed app's title bar. */
const QODA_THEME_COLOUR = "#8a3b12";

/** The manifest's words, in the reader's language. */
interface ManifestWords {
  name: string;
  shortName: string;
  description: string;
  newConsultation: string;
  newConsultationDescription: string;
  myConsultations: string;
  myConsultationsDescription: string;
}

/** Drawn once from public/favicon.svg by `npm run icons` (scripts/draw-app-icons.ts), committed. */
const ICONS = [
  { src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
  { src: "/icons/qoda-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/qoda-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  // The letter inside the safe circle (80 % of the side) on a full bleed of the brand colour.
  { src: "/icons/qoda-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
];
const SHORTCUT_ICONS = [{ src: "/icons/qoda-192.png", sizes: "192x192", type: "image/png" }];

export function webAppManifest(language: Language, words: ManifestWords) {
  return {
    // One app whatever the language it was installed in.
    id: "/",
    name: words.name,
    short_name: words.shortName,
    description: words.description,
    lang: language,
    dir: "ltr",
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "portrait",
    theme_color: QODA_THEME_COLOUR,
    background_color: "#ffffff",
    categories: ["medical", "health"],
    icons: ICONS,
    shortcuts: [
      {
        name: words.newConsultation,
        short_name: words.newConsultation,
        description: words.newConsultationDescription,
        url: "/patient/new-consultation",
        icons: SHORTCUT_ICONS,
      },
      {
        name: words.myConsultations,
        short_name: words.myConsultations,
        description: words.myConsultationsDescription,
        url: "/patient/consultations",
        icons: SHORTCUT_ICONS,
      },
    ],
  };
}
