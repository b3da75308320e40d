import type { RouteConfig } from "@remix-run/route-config";
import { flatRoutes } from "@remix-run/fs-routes";

// One file per URL under app/routes/, named by Remix's flat-route convention.
export default flatRoutes() satisfies RouteConfig;
