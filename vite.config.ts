import { cloudflareDevProxyVitePlugin, vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

// The app is built with `remix vite:build` and served by `wrangler dev` (docs/decisions/0001).
// The dev proxy is added only for `vite dev`, since at build time it would start a miniflare for nothing.
export default defineConfig(({ command }) => ({
  plugins: [
    ...(command === "serve" ? [cloudflareDevProxyVitePlugin()] : []),
    tailwindcss(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
  ],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  ssr: {
    resolve: { conditions: ["workerd", "worker", "browser"], externalConditions: ["workerd", "worker"] },
  },
  build: {
    sourcemap: false,
    // Fonts stay files (fetched only by pages that draw them), however small; other small assets inline.
    assetsInlineLimit: (file: string) => (file.endsWith(".woff2") ? false : undefined),
  },
}));
