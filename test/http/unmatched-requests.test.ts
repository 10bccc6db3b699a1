import { describe, expect, it } from 'vitest';
import { maskSecret } from '../../src/core/mask.js';
import { nearest } from '../../src/core/near-miss.js';
import { harness, KEYS, type Harness } from '../support/harness.js';

/** GET /_emulator/requests?unmatched=true: the requests that reached no workspace, each with its near miss. */
interface Listed {
  id: string;
  method: string;
  path: string;
  key: string;
  status: number;
  error_code: string | null;
  unmatched: { reason: string; near_route: string | null; near_key: string | null; hint: string | null };
}
const unmatched = async (h: Harness, query = '') => (await h.http().get(`/_emulator/requests?unmatched=true${query}`)).body as { data: Listed[]; total: number; dropped: number };

describe('the requests that reached no workspace', () => {
  it('a /v1 request without a key, and one whose key was sent in another header', async () => {
    const h = harness();
    expect((await h.http().get('/v1/onboardings')).status).toBe(401);
    expect((await h.http().get('/v1/onboardings').set('X-Api-Key', KEYS.owner)).status).toBe(401);
    const [elsewhere, none] = (await unmatched(h)).data;
    expect(none).toMatchObject({ method: 'GET', path: '/v1/onboardings', key: '', status: 401, error_code: 'api_key_missing', unmatched: { reason: 'no_key', near_key: null, hint: 'send the key as Authorization: Bearer <key>' } });
    expect(elsewhere!.unmatched).toEqual({ reason: 'no_key', near_route: null, near_key: maskSecret(KEYS.owner), hint: 'the key was sent in the x-api-key header: send it as Authorization: Bearer <key>' });
    expect(elsewhere!.id).toMatch(/^unm_\d{6}$/);
  });

  it('an unknown key, with the known key one slip from it, masked as the journal masks keys', async () => {
    const h = harness();
    expect((await h.as(`${KEYS.owner.slice(0, -1)}x`).get('/v1/onboardings')).status).toBe(401);
    expect((await h.as('hrs_test_nothing_like_any_key_at_all').get('/v1/onboardings')).status).toBe(401);
    const [far, near] = (await unmatched(h)).data;
    // The near key is masked as every key the journals show: recognisable, never whole.
    expect(near).toMatchObject({ status: 401, error_code: 'api_key_invalid', unmatched: { reason: 'unknown_key', near_key: maskSecret(KEYS.owner), hint: `a key one slip from ${maskSecret(KEYS.owner)}` } });
    expect(JSON.stringify(near)).not.toContain(KEYS.owner);
    expect(near!.key).toContain('…');
    expect(far!.unmatched).toMatchObject({ reason: 'unknown_key', near_key: null, hint: null });
  });

  it('a path no route serves, with the route it most likely meant; the workspace journal shows none of them', async () => {
    const h = harness();
    expect((await h.as(KEYS.owner).get('/v1/onboarding/onb_demo_jansen')).status).toBe(404);
    expect((await h.as(KEYS.owner).post('/v1/onbordings').send({})).status).toBe(404);
    expect((await h.http().get('/favicon.ico')).status).toBe(404);
    const [post, get] = (await unmatched(h)).data;
    expect(get!.unmatched).toMatchObject({ reason: 'no_route', near_route: 'GET, PATCH /v1/onboardings/{id}' });
    expect(post!.unmatched).toMatchObject({ reason: 'no_route', near_route: 'GET, POST /v1/onboardings', hint: 'did you mean GET, POST /v1/onboardings?' });
    expect((await unmatched(h)).total).toBe(2); // a browser's favicon request is no one's mistake
    expect((await unmatched(h, '&method=POST')).data.map((e) => e.path)).toEqual(['/v1/onbordings']);
    expect((await h.http().get('/_emulator/requests')).body.data).toEqual([]);
  });

  it('a readiness probe by another name: the same 404 envelope, pointing at /_emulator/health', async () => {
    const h = harness();
    const probes = ['/_emulator/ready', '/_emulator/healthz', '/_emulator/readiness', '/_emulator/live', '/_emulator/status', '/_emulator/ping', '/healthz', '/_emulator/health/'];
    for (const path of probes) {
      const res = await h.http().get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error, path).toMatchObject({ type: 'not_found', code: 'route_not_found' });
      expect(res.body.error.message, path).toBe(`No route GET ${path}: the readiness and liveness check is GET /_emulator/health (200 once the emulator serves requests)`);
      expect(res.body.error.param, path).toBeUndefined();
    }
    // An unrelated unknown path keeps the plain message: no health hint where none was meant.
    const other = await h.http().get('/_emulator/reports/weekly');
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ type: 'not_found', code: 'route_not_found', message: 'No route GET /_emulator/reports/weekly.' });
    const listed = (await unmatched(h)).data;
    expect(listed[0]!.unmatched.hint ?? '').not.toContain('/_emulator/health');
    expect(listed[1]!.unmatched).toMatchObject({ reason: 'no_route', near_route: 'GET /_emulator/health', hint: expect.stringContaining('GET /_emulator/health') });
  });

  it('an edit-distance guess stays in the list, out of the message: it is only a guess', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post('/v1/onbordings').send({});
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'route_not_found', message: 'No route POST /v1/onbordings.' });
  });

  it('compares nothing for a path or key far longer than any route or key: the work per refused request stays bounded', async () => {
    const h = harness();
    const long = `/v1/onboardingz/${'a'.repeat(15_000)}`;
    expect(nearest(long, ['/v1/onboardings/{id}'])).toBeNull();
    expect((await h.as(KEYS.owner).get(long)).status).toBe(404);
    expect((await h.as(`hrs_test_${'x'.repeat(12_000)}`).get('/v1/onboardings')).status).toBe(401);
    const [key, path] = (await unmatched(h)).data;
    expect(path!.unmatched).toMatchObject({ reason: 'no_route', near_route: null });
    expect(key!.unmatched).toMatchObject({ reason: 'unknown_key', near_key: null });
    // A browser's own probes are no one's mistake.
    await h.http().get('/.well-known/appspecific/com.chrome.devtools.json');
    expect((await unmatched(h)).total).toBe(2);
  });

  it('keeps none with the journal off (--journal-limit 0)', async () => {
    const h = harness({ journalLimit: 0 });
    await h.http().get('/v1/onboardings');
    expect(await unmatched(h)).toMatchObject({ data: [], total: 0 });
  });
});
