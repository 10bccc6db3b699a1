import { describe, expect, it } from 'vitest';
import { createBody, harness, KEYS } from '../support/harness.js';

/** The same seed, frozen clock, fixtures and request sequence give byte-identical responses. */
async function session(seed: string | undefined) {
  const h = harness(seed === undefined ? {} : { seed }, { publicUrl: 'http://localhost:4010' });
  const out: string[] = [];
  const record = (res: { text: string; headers: Record<string, string> }) => out.push(`${res.headers['request-id']} ${res.text}`);
  const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
  record(created);
  record(await h.as(KEYS.owner).get(`/v1/onboardings/${created.body.id}`));
  record(await h.as(KEYS.owner).post(`/v1/onboardings/${created.body.id}/hosted-link`, {}));
  record(await h.as(KEYS.owner).get('/v1/onboardings?limit=2'));
  record(await h.as('hrs_test_unknown').get('/v1/onboardings'));
  record(await h.http().post('/_emulator/workspaces').send({}));
  return out;
}

describe('--seed', () => {
  it('makes ids, hosted links and request ids reproducible', async () => {
    const a = await session('42');
    const b = await session('42');
    expect(a).toEqual(b);
    expect(a[0]).toMatch(/^req_\w+ .*"id":"onb_/);
  });

  it('gives other ids for another seed, and random ones without a seed', async () => {
    const a = await session('42');
    const c = await session('43');
    const d = await session(undefined);
    const e = await session(undefined);
    expect(c[0]).not.toBe(a[0]);
    expect(d[0]).not.toBe(e[0]);
  });

  it('gives every workspace its own sequence, so one test file cannot shift another', async () => {
    const h = harness({ seed: '7' });
    const ws = await h.http().post('/_emulator/workspaces').send({ seed: 'abc' });
    const key = ws.body.keys.find((k: { name: string }) => k.name.startsWith('Acme owner')).key as string;
    const inOther = await h.as(key).post('/v1/onboardings', createBody());
    const h2 = harness({ seed: '7' });
    await h2.as(KEYS.owner).post('/v1/onboardings', createBody());
    await h2.as(KEYS.owner).post('/v1/onboardings', createBody());
    const ws2 = await h2.http().post('/_emulator/workspaces').send({ seed: 'abc' });
    const key2 = ws2.body.keys.find((k: { name: string }) => k.name.startsWith('Acme owner')).key as string;
    const inOther2 = await h2.as(key2).post('/v1/onboardings', createBody());
    expect(inOther2.body.id).toBe(inOther.body.id);
  });
});
