import { describe, expect, it } from 'vitest';
import { MAX_FAULTS, MAX_WORKSPACES } from '../../src/control/control.service.js';
import { expectError, harness } from '../support/harness.js';

/** Counts the control API keeps bounded: workspaces, faults and delivery faults. */
describe('count limits', () => {
  it('keeps at most 100 workspaces, the default one included, and takes a new one once one is deleted', async () => {
    const h = harness();
    let last = '';
    for (let i = 1; i < MAX_WORKSPACES; i++) {
      const res = await h.http().post('/_emulator/workspaces').send({});
      expect(res.status).toBe(201);
      last = res.body.id as string;
    }
    const refused = await h.http().post('/_emulator/workspaces').send({});
    expectError(refused, 422, 'invalid_request', 'workspace_limit_reached');
    expect(refused.body.error.message).toContain('at most 100 workspaces');
    expect(h.emulator.workspaces()).toHaveLength(MAX_WORKSPACES);
    expect((await h.http().delete(`/_emulator/workspaces/${last}`)).status).toBe(200);
    expect((await h.http().post('/_emulator/workspaces').send({})).status).toBe(201);
  });

  it('keeps at most 100 faults and 100 delivery faults waiting in a workspace', async () => {
    const h = harness();
    for (let i = 0; i < MAX_FAULTS; i++) {
      expect((await h.http().post('/_emulator/faults').send({ kind: 'error', count: 1, path: `/v1/x${i}` })).status).toBe(201);
      expect((await h.http().post('/_emulator/delivery-faults').send({ kind: 'delay', delay_ms: 1000 })).status).toBe(201);
    }
    expectError(await h.http().post('/_emulator/faults').send({ kind: 'error', count: 1 }), 422, 'invalid_request', 'fault_limit_reached');
    expectError(await h.http().post('/_emulator/delivery-faults').send({ kind: 'delay', delay_ms: 1000 }), 422, 'invalid_request', 'fault_limit_reached');
    expect((await h.http().delete('/_emulator/faults')).status).toBe(200);
    expect((await h.http().post('/_emulator/faults').send({ kind: 'error', count: 1 })).status).toBe(201);
  });
});
