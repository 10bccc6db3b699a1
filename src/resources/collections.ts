import type { StoreLayout } from '../core/store.js';
import type { EmployeeRecord } from './employees/employees.model.js';
import type { EventRecord } from './events/events.model.js';
import type { OnboardingRecord } from './onboardings/onboardings.model.js';
import type { ApiKey, Organization, User } from './organizations/organizations.model.js';
import type { ReviewerLinkRecord, ReviewSessionRecord } from './reviews/reviews.model.js';
import type { DeliveryRecord, WebhookEndpointRecord } from './webhooks/webhooks.model.js';

// What the workspace store holds, declared by the resources that own the records.
declare module '../core/store.js' {
  interface StoreRecords {
    organizations: Organization;
    users: User;
    keys: ApiKey;
    onboardings: OnboardingRecord;
    employees: EmployeeRecord;
    events: EventRecord;
    webhooks: WebhookEndpointRecord;
    deliveries: DeliveryRecord;
    reviewSessions: ReviewSessionRecord;
    /** A client's reviewer (external_id) linked to an account for 30 days after a first review. */
    reviewerLinks: ReviewerLinkRecord;
  }
}

/**
 * The store's collections and the field each is indexed by, in the order snapshots and the
 * state file list them (a stable order keeps equal states byte-identical).
 */
export const STORE_LAYOUT: StoreLayout = {
  organizations: 'id',
  users: 'id',
  keys: 'key',
  onboardings: 'id',
  employees: 'id',
  events: 'id',
  webhooks: 'id',
  deliveries: 'id',
  reviewSessions: 'id',
  reviewerLinks: 'id',
};
