import { describe, expect, it } from 'vitest';
import { refuseLiveKeys, unmaskKeyTable, withLiveKeysMasked } from '../../src/mcp/mcp.keys.js';

describe('live keys and MCP', () => {
  it('masks live keys in answers, whatever characters they hold, and refuses them in arguments', () => {
    expect(withLiveKeysMasked({ keys: ['hrs_live_acme_owner', 'hrs_test_acme_owner'] })).toEqual({ keys: ['hrs_live_…_owner', 'hrs_test_acme_owner'] });
    expect(withLiveKeysMasked({ note: 'sent hrs_live_acme-PRODSECRET9 twice' })).toEqual({ note: 'sent hrs_live_…ECRET9 twice' });
    expect(() => refuseLiveKeys({ body: { reference: 'hrs_live_acme_owner' } })).toThrow(/test keys only/);
    expect(() => refuseLiveKeys({ body: { reference: 'x-hrs_live_-PROD' } })).toThrow(/test keys only/);
    // A masked key is no key: an agent may hand back what it was shown.
    expect(() => refuseLiveKeys({ body: { reference: 'hrs_live_…_owner' } })).not.toThrow();
  });

  const snapshot = (keys: string[], reference: string) => ({ store: { keys: keys.map((key) => ({ key, name: 'k' })), onboardings: [{ reference }] } });

  it("puts a masked key back in the snapshot's key table only, where one live key has that mask", () => {
    const live = ['hrs_live_acme_owner', 'hrs_test_acme_owner'];
    expect(unmaskKeyTable(snapshot(['hrs_live_…_owner', 'hrs_test_acme_owner'], 'hrs_live_…_owner'), live)).toEqual(
      snapshot(['hrs_live_acme_owner', 'hrs_test_acme_owner'], 'hrs_live_…_owner'),
    );
    // A mask no live key of the workspace has stays as it is (the snapshot's schema refuses it).
    expect(unmaskKeyTable(snapshot(['hrs_live_…other'], 'x'), live)).toEqual(snapshot(['hrs_live_…other'], 'x'));
    expect(unmaskKeyTable({ store: null }, live)).toEqual({ store: null });
  });

  it('refuses a masked key two live keys share', () => {
    // Two live keys of a workspace end alike (its suffix): which one a mask stands for is unknown.
    const twins = ['hrs_live_acme_owner_a1b2c3', 'hrs_live_beta_owner_a1b2c3'];
    expect(() => unmaskKeyTable(snapshot(['hrs_live_…a1b2c3'], 'x'), twins)).toThrow(/cannot tell them apart/);
  });
});
