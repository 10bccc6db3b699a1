import type { TimerHandlers } from './core/workspace.js';
import type { WorkspaceHooks } from './core/workspace.js';
import { plan, playStep, SCENARIO_STEP } from './scenarios/scenario.autopilot.js';
import { scriptedPayroll } from './scenarios/scenario.rules.js';
import { purgeEvent } from './resources/events/events.emit.js';
import { purgeDelivery } from './resources/webhooks/webhooks.dispatcher.js';
import { attemptTimer, expireSecret } from './resources/webhooks/webhooks.rules.js';
import { reviewerLinkExpired, reviewSessionExpired } from './resources/reviews/reviews.service.js';

/** Every kind of timer and what it does when it fires: wired here, in one table. */
export const TIMER_HANDLERS: TimerHandlers = {
  'event.purge': purgeEvent,
  'webhook.attempt': attemptTimer,
  'webhook.delivery_purge': purgeDelivery,
  'webhook.secret_expire': expireSecret,
  'review_session.expire': reviewSessionExpired,
  'reviewer_link.expire': reviewerLinkExpired,
  [SCENARIO_STEP]: playStep,
};

/** What reacts to changes in every workspace, and answers its questions. */
export const WORKSPACE_HOOKS: WorkspaceHooks = {
  afterTransition: plan,
  scriptedPayroll,
};
