import { flatRoutes } from "@remix-run/fs-routes";
import type { RouteConfig } from "@remix-run/route-config";

// One file per URL under app/routes/, named by Remix's flat-route convention.
export default flatRoutes() satisfies RouteConfig;
