import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FixturesDocument } from '../../src/fixtures/fixtures.schemas.js';
import { createBody, envelope, harness, KEYS } from '../support/harness.js';
import { HOUR, expectRefused, expectCreated } from '../support/onboarding-create.js';

/** POST /v1/onboardings and the subscription of the party that pays: the employer, or the partner creating for it. */

describe('POST /v1/onboardings: subscription_required', () => {
  it('refuses an employer without a running trial or subscription with 403 subscription_required', async () => {
    const body = createBody({
      employment: { ...createBody().employment, location_id: 'loc_corner_main', template_id: 'tpl_corner_staff' },
    });
    const err = await expectRefused(body, { status: 403, code: 'subscription_required' }, KEYS.corner);
    expect(err.type).toBe('permission_error');
  });

  it('lets an employer on a running trial create (org_bakker)', async () => {
    const body = createBody({
      employment: { ...createBody().employment, location_id: 'loc_bakker_haarlem', template_id: 'tpl_bakker_baker' },
    });
    const { res } = await expectCreated(body, KEYS.bakker);
    expect(res.body.status).toBe('pending_employee');
  });
});

/** The default fixtures, without their onboardings, with other subscriptions for org_acme and the partner HR Soft. */
function fixturesWith(acme: Record<string, unknown>, hrsoft: Record<string, unknown> = {}): FixturesDocument {
  const doc = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as {
    organizations: Record<string, unknown>[];
    partners: Record<string, unknown>[];
    onboardings: unknown[];
  };
  // Fixture onboardings are created at start-up and would meet the subscription rule themselves.
  doc.onboardings = [];
  doc.organizations = doc.organizations.map((o) => (o.id === 'org_acme' ? { ...o, ...acme } : o));
  doc.partners = doc.partners.map((p) => (p.id === 'org_hrsoft' ? { ...p, ...hrsoft } : p));
  return doc as unknown as FixturesDocument;
}

describe('POST /v1/onboardings: subscription of the paying party', () => {
  it('lets an employer create while its trial runs, and refuses with 403 subscription_required once it has ended', async () => {
    const h = harness({ fixtures: fixturesWith({ subscription: 'trial', trial_ends_at: '2026-10-06T09:00:00Z' }) });
    const during = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(during.status, JSON.stringify(during.body)).toBe(201);
    h.emulator.defaultWorkspace.clock.advance(25 * HOUR);
    const before = h.storeJson();
    const after = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(after.status).toBe(403);
    const err = envelope(after);
    expect(err.type).toBe('permission_error');
    expect(err.code).toBe('subscription_required');
    expect(h.storeJson()).toBe(before);
  });

  it('lets a partner with a subscription create for an employer without one', async () => {
    const h = harness({ fixtures: fixturesWith({ subscription: 'none' }, { subscription: 'active' }) });
    const res = await h.as(KEYS.hrsoft).post('/v1/onboardings', createBody()).set('Service-Organization', 'org_acme');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("does not let the employer's own key create on the partner's subscription", async () => {
    const h = harness({ fixtures: fixturesWith({ subscription: 'none' }, { subscription: 'active' }) });
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('subscription_required');
  });

  it('refuses a partner without a subscription acting for an employer without one', async () => {
    const h = harness({ fixtures: fixturesWith({ subscription: 'none' }) });
    const res = await h.as(KEYS.hrsoft).post('/v1/onboardings', createBody()).set('Service-Organization', 'org_acme');
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('subscription_required');
  });
});
