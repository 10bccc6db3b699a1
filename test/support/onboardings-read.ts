import { expect } from 'vitest';
import { createBody, KEYS, type Harness } from './harness.js';

/**
 * Shared by the tests that read onboardings (test/http/onboardings.read.test.ts and
 * onboardings.list.test.ts): the fixture onboardings as listed, and onboardings made in bulk.
 */
export const HOUR = 60 * 60 * 1000;
export const EMPLOYER_FIXTURE = 'onb_demo_jansen'; // created by hrs_test_acme_owner
export const PARTNER_FIXTURE = 'onb_demo_partner'; // created by hrs_test_hrsoft for org_acme
/** Staff onboardings of org_acme, created first by hrs_test_acme_owner and completed at load; newest first. */
export const STAFF_FIXTURES = ['onb_acme_daan', 'onb_acme_sanne'];
/** What Acme's owner key lists on the default fixtures, newest first. */
export const ALL_FIXTURES = [PARTNER_FIXTURE, EMPLOYER_FIXTURE, ...STAFF_FIXTURES];

export const partner = (h: Harness) => h.asPartnerFor(KEYS.hrsoft, 'org_acme');

export async function createMany(h: Harness, n: number, key: string = KEYS.owner, overrides: (i: number) => Record<string, unknown> = () => ({})) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await h.as(key).post('/v1/onboardings', createBody({ reference: `bulk-${i}`, ...overrides(i) }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids.push(res.body.id as string);
  }
  return ids;
}

export const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((o) => o.id);
