import { controlRoutes } from '../control/control.routes.js';
import { deliveryFaultRoutes } from '../control/delivery-faults.routes.js';
import { inspectRoutes } from '../control/inspect.routes.js';
import { receiverCheckRoutes } from '../control/receiver-check.routes.js';
import { relayRoutes } from '../control/relay.routes.js';
import { requestRoutes } from '../control/requests.routes.js';
import { onboardingActionRoutes } from '../control/onboarding-actions.routes.js';
import { scenarioRoutes } from '../control/scenario.routes.js';
import { stateMachineRoutes } from '../control/state-machine.routes.js';
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
import type { ApiRoute, ControlRoute } from '../resources/route.js';

/** Every route the app serves, in one list: the adapter mounts it, OpenAPI documents it. */
export const apiRoutes: ApiRoute[] = [
  ...organizationRoutes, ...onboardingRoutes, ...approvalRoutes, ...contractRoutes, ...employeeRoutes, ...eventRoutes, ...sandboxRoutes,
  ...documentRoutes, ...integrationRoutes, ...reviewRoutes, ...webhookRoutes,
];
export const allControlRoutes: ControlRoute<Emulator>[] = [...controlRoutes, ...onboardingActionRoutes, ...scenarioRoutes, ...inspectRoutes, ...requestRoutes, ...deliveryFaultRoutes, ...stateMachineRoutes, ...receiverCheckRoutes, ...relayRoutes];

/** Concrete paths served for a route (per-workspace control routes are served twice). */
export function servedPaths(route: ApiRoute | ControlRoute<Emulator>): string[] {
  if (route.kind === 'control' && route.perWorkspace) {
    return [route.path, route.path.replace('/_emulator/', '/_emulator/workspaces/:workspaceId/')];
  }
  return [route.path];
}

export interface PathMatcher {
  /** Methods served at a concrete path, or an empty list for an unknown path. */
  methodsAt(path: string): string[];
}

export function pathMatcher(extra: { method: string; path: string }[]): PathMatcher {
  const table = [
    ...[...apiRoutes, ...allControlRoutes].flatMap((r) => servedPaths(r).map((path) => ({ method: r.method, path }))),
    ...extra,
  ].map((r) => ({ method: r.method, regex: new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`) }));
  return {
    methodsAt(path) {
      const methods = new Set(table.filter((r) => r.regex.test(path)).map((r) => r.method));
      if (methods.has('GET')) methods.add('HEAD');
      return [...methods];
    },
  };
}
