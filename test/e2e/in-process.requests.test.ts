import { afterEach, describe, expect, it } from 'vitest';
import { httpControl } from '../../src/client/http.js';
import { ApiError, createEmulator, type ControlClient, type InProcessEmulator } from '../../src/index.js';

const OWNER = 'hrs_test_acme_owner';
const started: InProcessEmulator[] = [];

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

async function withTraffic() {
  const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' } });
  started.push(em);
  const { url } = await em.start(0);
  const headers = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
  expect((await fetch(`${url}/v1/organization`, { headers })).status).toBe(200);
  expect((await fetch(`${url}/v1/onboardings`, { method: 'POST', headers, body: JSON.stringify({ reference: 'x' }) })).status).toBe(422);
  return { em, url };
}

/** The same calls and the same answers through both transports of the control interface. */
async function exercise(control: ControlClient) {
  const page = await control.requests.find({ method: 'POST' });
  expect(page).toMatchObject({ total: 1, dropped: 0, has_more: false });
  expect(page.data[0]).toMatchObject({ path: '/v1/onboardings', status: 422, body: { reference: 'x' }, key: 'hrs_test_…_owner' });
  expect((await control.requests.find({ limit: 1 })).data.map((e) => e.path)).toEqual(['/v1/onboardings']);

  expect(await control.requests.verify({ path: '/v1/organization', status: 200 }, { exactly: 1 })).toMatchObject({ ok: true, count: 1, nearest: [] });
  const missed = await control.requests.verify({ method: 'POST', status: 201 }, { at_least: 1 });
  expect(missed.ok).toBe(false);
  expect(missed.nearest.map((n) => n.differs)).toEqual([['status'], ['method', 'status']]);

  await expect(control.requests.find({ status: 'two hundred' as unknown as number })).rejects.toMatchObject({ status: 422 });
  expect(await control.requests.clear()).toEqual({ deleted: 2, dropped: 0 });
  expect((await control.requests.find()).total).toBe(0);
}

describe('the request journal through the control interface', () => {
  it('in process', async () => {
    const { em } = await withTraffic();
    await exercise(em);
    await expect(em.requests.verify({}, { exactly: -1 })).rejects.toBeInstanceOf(ApiError);
  });

  it('over HTTP (the CLI client)', async () => {
    const { url } = await withTraffic();
    await exercise(httpControl({ url }));
  });
});
