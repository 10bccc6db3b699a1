import { describe, expect, it } from 'vitest';
import { envelope, harness, KEYS } from '../support/harness.js';

describe('requests the router cannot read', () => {
  it.each(['/v1/onboardings/%E0%A4%A', '/v1/onboardings/%zz', '/_emulator/workspaces/%zz'])(
    'answers a broken percent-encoding in %s with 400, not 500',
    async (path) => {
      const res = await harness().as(KEYS.owner).get(path);
      expect(res.status).toBe(400);
      expect(envelope(res)).toMatchObject({ type: 'invalid_request', code: 'request_malformed' });
    },
  );

  it('answers OPTIONS on a known path with 204 and Allow, and on an unknown one with 404', async () => {
    const h = harness();
    const known = await h.http().options('/v1/onboardings/onb_demo_jansen');
    expect(known.status).toBe(204);
    expect(known.headers.allow).toBe('GET, PATCH, HEAD, OPTIONS');
    const unknown = await h.http().options('/v1/nothing');
    expect(envelope(unknown).code).toBe('route_not_found');
  });

  it('refuses a query parameter written in bracket style as unknown', async () => {
    const res = await harness().as(KEYS.owner).get('/v1/onboardings?status[a]=b');
    expect(res.status).toBe(422);
    expect(envelope(res)).toMatchObject({ code: 'parameter_unknown', param: 'status[a]' });
  });

  it('refuses a repeated query parameter', async () => {
    const res = await harness().as(KEYS.owner).get('/v1/onboardings?limit=5&limit=6');
    expect(envelope(res)).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
  });
});
