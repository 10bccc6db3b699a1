import { catalogRoutes } from './catalog.routes.js';
import { controlRoutes } from './control.routes.js';
import { deliveryFaultRoutes } from './delivery-faults.routes.js';
import { deliveryRoutes } from './deliveries.routes.js';
import { eventCatalogRoutes } from './event-catalog.routes.js';
import { postmanRoutes } from './postman.routes.js';
import { inspectRoutes } from './inspect.routes.js';
import { onboardingActionRoutes } from './onboarding-actions.routes.js';
import { receiverCheckRoutes } from './receiver-check.routes.js';
import { relayRoutes } from './relay.routes.js';
import { requestRoutes } from './requests.routes.js';
import { scenarioRoutes } from './scenario.routes.js';
import { stateMachineRoutes } from './state-machine.routes.js';
import { testValuesRoutes } from './test-values.routes.js';
import { triggerRoutes } from './trigger.routes.js';
import { waitRoutes } from './wait.routes.js';

/**
 * Every control row in one list: the HTTP adapter mounts it, OpenAPI documents it, and the
 * clients (in process and over HTTP) are made from it. Its element type keeps each row's own
 * types, so the clients' type follows the rows.
 */
export const controlRows = [
  ...controlRoutes, ...onboardingActionRoutes, ...scenarioRoutes, ...inspectRoutes, ...requestRoutes, ...deliveryFaultRoutes,
  ...stateMachineRoutes, ...receiverCheckRoutes, ...relayRoutes, ...waitRoutes, ...deliveryRoutes, ...postmanRoutes,
  ...triggerRoutes,
  ...eventCatalogRoutes,
  ...catalogRoutes,
  ...testValuesRoutes,
];
