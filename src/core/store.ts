import type { ApiKey, Organization, User } from '../resources/organizations/organizations.model.js';
import type { OnboardingRecord } from '../resources/onboardings/onboardings.model.js';
import type { EmployeeRecord } from '../resources/employees/employees.model.js';
import type { EventRecord } from '../resources/events/events.model.js';
import type { DeliveryRecord, WebhookEndpointRecord } from '../resources/webhooks/webhooks.model.js';
import type { ReviewerLinkRecord, ReviewSessionRecord } from '../resources/reviews/reviews.model.js';

/** An insertion-ordered collection; records are replaced whole, never mutated in place. */
export class Collection<T> {
  private readonly items = new Map<string, T>();

  constructor(private readonly idOf: (item: T) => string) {}

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  has(id: string): boolean {
    return this.items.has(id);
  }

  /** Adds a new record or replaces the stored one with the same id. */
  put(item: T): T {
    this.items.set(this.idOf(item), item);
    return item;
  }

  delete(id: string): boolean {
    return this.items.delete(id);
  }

  /** Oldest first. */
  values(): T[] {
    return [...this.items.values()];
  }

  get size(): number {
    return this.items.size;
  }
}

/** Everything a workspace stores. Each record is plain JSON so a snapshot can hold it. */
export interface Store {
  organizations: Collection<Organization>;
  users: Collection<User>;
  keys: Collection<ApiKey>;
  onboardings: Collection<OnboardingRecord>;
  employees: Collection<EmployeeRecord>;
  events: Collection<EventRecord>;
  webhooks: Collection<WebhookEndpointRecord>;
  deliveries: Collection<DeliveryRecord>;
  reviewSessions: Collection<ReviewSessionRecord>;
  /** A client's reviewer (external_id) linked to an account for 30 days after a first review. */
  reviewerLinks: Collection<ReviewerLinkRecord>;
  /** Monotonic counter giving every created record a stable position. */
  sequence: { next: number };
}

export function createStore(): Store {
  return {
    organizations: new Collection((o) => o.id),
    users: new Collection((u) => u.id),
    keys: new Collection((k) => k.key),
    onboardings: new Collection((o) => o.id),
    employees: new Collection((e) => e.id),
    events: new Collection((e) => e.id),
    webhooks: new Collection((w) => w.id),
    deliveries: new Collection((d) => d.id),
    reviewSessions: new Collection((s) => s.id),
    reviewerLinks: new Collection((l) => l.id),
    sequence: { next: 1 },
  };
}

export function nextSequence(store: Store): number {
  return store.sequence.next++;
}

/** A plain-JSON copy of the whole store, for comparisons now and persistence later. */
export function snapshotStore(store: Store): Record<string, unknown> {
  return {
    organizations: store.organizations.values(),
    users: store.users.values(),
    keys: store.keys.values(),
    onboardings: store.onboardings.values(),
    employees: store.employees.values(),
    events: store.events.values(),
    webhooks: store.webhooks.values(),
    deliveries: store.deliveries.values(),
    reviewSessions: store.reviewSessions.values(),
    reviewerLinks: store.reviewerLinks.values(),
    sequence: store.sequence.next,
  };
}
