import { flatRoutes } from "@remix-run/fs-routes";
import type { RouteConfig } from "@remix-run/route-config";

// One file per URL under app/routes/, named by Remix's flat-route convention. A page's server half
// (`x.server.ts` beside `x.tsx`) sits among them and is no route.
export default flatRoutes({ ignoredRouteFiles: ["**/*.server.ts"] }) satisfies RouteConfig;
