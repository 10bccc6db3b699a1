import type { TimerHandlers } from './core/scheduler.js';
import { purgeEvent } from './resources/events/events.emit.js';
import { reviewerLinkExpired, reviewSessionExpired } from './resources/reviews/reviews.service.js';

/** Every kind of timer and what it does when it fires: wired here, in one table. */
export const TIMER_HANDLERS: TimerHandlers = {
  'event.purge': purgeEvent,
  'review_session.expire': reviewSessionExpired,
  'reviewer_link.expire': reviewerLinkExpired,
};
