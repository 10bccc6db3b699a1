import { afterEach, describe, expect, it } from 'vitest';
import { ApiError as HttpApiError, httpControl } from '../../src/client/http.js';
import { ApiError, createEmulator, type ControlClient, type InProcessEmulator } from '../../src/index.js';

const started: InProcessEmulator[] = [];

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

/** faults.get through one transport: the fault as added, its count going down, then gone. */
async function exercise(client: ControlClient, url: string) {
  const fault = await client.faults.add({ kind: 'error', method: 'GET', path: '/v1/organization', count: 2 });
  const fresh = await client.faults.get(fault.id);
  await fetch(`${url}/v1/organization`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
  const used = await client.faults.get(fault.id);
  await fetch(`${url}/v1/organization`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
  const gone = await client.faults.get(fault.id).then(() => null, (err: unknown) => err);
  return { fault, fresh, used, gone };
}

describe('faults.get: one fault by id, a control action made from one row', () => {
  it('answers the same in process, through the HTTP client and over plain HTTP', async () => {
    const em = createEmulator({ clock: { mode: 'frozen' } });
    started.push(em);
    const { url } = await em.start(0);

    const local = await exercise(em, url);
    expect(local.fresh).toEqual(local.fault);
    expect(local.used).toEqual({ ...local.fault, remaining: 1 });
    expect(local.gone).toBeInstanceOf(ApiError);
    expect(local.gone).toMatchObject({ code: 'resource_not_found', param: 'id' });

    const remote = await exercise(httpControl({ url }), url);
    expect(remote.used).toEqual({ ...remote.fault, remaining: 1 });
    expect(remote.gone).toBeInstanceOf(HttpApiError);
    expect(remote.gone).toMatchObject({ status: 404, code: 'resource_not_found' });

    const added = await em.faults.add({ kind: 'rate_limit' });
    const plain = await fetch(`${url}/_emulator/faults/${added.id}`);
    expect(plain.status).toBe(200);
    expect(await plain.json()).toEqual(added);
    const ws = await em.workspace.create();
    expect((await fetch(`${url}/_emulator/workspaces/${ws.id}/faults/${added.id}`)).status).toBe(404); // another workspace's fault
  });
});
