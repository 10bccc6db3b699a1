import { explorerPageRoutes } from './explorer/explorer.routes.js';
import { hostedPageRoutes } from './hosted/hosted.routes.js';
import { inspectorPageRoutes } from './inspector/inspector.routes.js';
import type { PageRoute } from './route.js';
import { reviewPageRoutes } from './review/review.routes.js';

/** Every page a person opens, in one list: src/http mounts it, the OpenAPI document describes it. */
export const pageRoutes: PageRoute[] = [...reviewPageRoutes, ...hostedPageRoutes, ...inspectorPageRoutes, ...explorerPageRoutes];
