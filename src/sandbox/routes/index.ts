/** Every route module of the sandbox; the server builds each once per instance. */
import { importRoutes } from '../imports/routes.ts';
import type { RouteModule } from '../router.ts';
import { analyticsRoute } from './analytics-route.ts';
import { feedRoutes } from './feed-routes.ts';
import { openapiRoute } from './openapi-route.ts';
import { websitesRoutes } from './websites-routes.ts';

export const routeModules: RouteModule[] = [websitesRoutes, analyticsRoute, feedRoutes, openapiRoute, importRoutes];
