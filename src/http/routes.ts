import type { Emulator } from '../emulator.js';
import { approvalRoutes } from '../resources/approvals/approvals.routes.js';
import { contractRoutes } from '../resources/contracts/contracts.routes.js';
import { documentRoutes } from '../resources/documents/documents.routes.js';
import { employeeRoutes } from '../resources/employees/employees.routes.js';
import { eventRoutes } from '../resources/events/events.routes.js';
import { webhookRoutes } from '../resources/webhooks/webhooks.routes.js';
import { integrationRoutes } from '../resources/integrations/integrations.routes.js';
import { onboardingRoutes } from '../resources/onboardings/onboardings.routes.js';
import { organizationRoutes } from '../resources/organizations/organizations.routes.js';
import { reviewRoutes } from '../resources/reviews/reviews.routes.js';
import { sandboxRoutes } from '../resources/sandbox/sandbox.routes.js';
import type { ApiRoute } from '../resources/route.js';
import { servedPaths as controlPaths, type ControlRoute } from '../operations/control-row.js';
import { controlRows } from '../control/control.table.js';
import { mcpRoute } from '../mcp/mcp.routes.js';

/** Every route the app serves, in one list: the adapter mounts it, OpenAPI documents it. */
export const apiRoutes: ApiRoute[] = [
  ...organizationRoutes, ...onboardingRoutes, ...approvalRoutes, ...contractRoutes, ...employeeRoutes, ...eventRoutes, ...sandboxRoutes,
  ...documentRoutes, ...integrationRoutes, ...reviewRoutes, ...webhookRoutes,
];
/** The control table's rows and MCP's, which makes no client method (its tools are the others'). */
export const allControlRoutes: ControlRoute<Emulator>[] = [...controlRows, mcpRoute];

/** Concrete paths served for a route (per-workspace control routes are served twice). */
export function servedPaths(route: ApiRoute | ControlRoute<Emulator>): string[] {
  return route.kind === 'control' ? controlPaths(route) : [route.path];
}

export interface PathMatcher {
  /** Methods served at a concrete path, or an empty list for an unknown path. */
  methodsAt(path: string): string[];
  /** Every method and path served, parameters written `{id}`: what a wrong path is held against. */
  readonly templates: readonly { method: string; path: string }[];
}

export function pathMatcher(extra: { method: string; path: string }[]): PathMatcher {
  const served = [...[...apiRoutes, ...allControlRoutes].flatMap((r) => servedPaths(r).map((path) => ({ method: r.method, path }))), ...extra];
  const table = served.map((r) => ({ method: r.method, regex: new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`) }));
  return {
    templates: served.map((r) => ({ method: r.method, path: r.path.replace(/:([A-Za-z]+)/g, '{$1}') })),
    methodsAt(path) {
      const methods = new Set(table.filter((r) => r.regex.test(path)).map((r) => r.method));
      if (methods.has('GET')) methods.add('HEAD');
      return [...methods];
    },
  };
}
