import { describe, expect, it } from 'vitest';
import { maskLiveKeys, refuseLiveKeys, unmaskLiveKeys } from '../../src/mcp/mcp.keys.js';

describe('live keys and MCP', () => {
  it('masks live keys in answers, whatever characters they hold, and refuses them in arguments', () => {
    const withDash = maskLiveKeys({ note: 'sent hrs_live_acme-PRODSECRET9 twice' });
    expect(maskLiveKeys({ keys: ['hrs_live_acme_owner', 'hrs_test_acme_owner'] })).toEqual({ keys: ['hrs_live_…_owner', 'hrs_test_acme_owner'] });
    expect(withDash).toEqual({ note: 'sent hrs_live_…ECRET9 twice' });
    expect(() => refuseLiveKeys({ body: { reference: 'hrs_live_acme_owner' } })).toThrow(/test keys only/);
    expect(() => refuseLiveKeys({ body: { reference: 'x-hrs_live_-PROD' } })).toThrow(/test keys only/);
    // A masked key is no key: an agent may hand back what it was shown.
    expect(() => refuseLiveKeys({ body: { reference: 'hrs_live_…_owner' } })).not.toThrow();
  });

  it('puts a masked key back only where one live key has that mask, and refuses an ambiguous one', () => {
    expect(unmaskLiveKeys({ key: 'hrs_live_…_owner' }, ['hrs_live_acme_owner', 'hrs_test_acme_owner'])).toEqual({ key: 'hrs_live_acme_owner' });
    // Two live keys of a workspace end alike (its suffix): which one a mask stands for is unknown.
    const twins = ['hrs_live_acme_owner_a1b2c3', 'hrs_live_beta_owner_a1b2c3'];
    expect(() => unmaskLiveKeys({ key: 'hrs_live_…a1b2c3' }, twins)).toThrow(/cannot tell them apart/);
    expect(unmaskLiveKeys({ key: 'hrs_live_…other' }, twins)).toEqual({ key: 'hrs_live_…other' });
  });
});
