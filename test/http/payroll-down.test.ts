import { describe, expect, it } from 'vitest';
import { expectError, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';
import { createOnboarding, events, must, toProcessing } from '../support/control.js';
import { advance, advanceTimes } from '../support/sandbox-steps.js';

const addFault = (h: Harness, body: object) => h.http().post('/_emulator/faults').send(body);
const faults = async (h: Harness) => (await h.http().get('/_emulator/faults')).body.data as { kind: string; remaining: number }[];

/** The payroll error_code after a sandbox step. */
const codeOf = (step: { onboarding: Record<string, unknown> }) => (step.onboarding.payroll as { error_code: string | null }).error_code;

/** The sandbox's ninth step is employer_signed: the onboarding is then processing. */
async function sandboxToProcessing(h: Harness): Promise<string> {
  const id = await createOnboarding(h);
  expect((await advanceTimes(h, id, 9))[8]).toBe('employer_signed');
  return id;
}

describe('POST /_emulator/faults with kind payroll_down', () => {
  it('answers 201 with count 1 and error_code payroll_connector_unavailable by default; the list shows it', async () => {
    const h = harness();
    const res = await addFault(h, { kind: 'payroll_down' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^flt_\w+$/), object: 'fault', kind: 'payroll_down', method: null, path: null,
      count: 1, remaining: 1, latency_ms: null, retry_after_seconds: null, error_code: 'payroll_connector_unavailable', first_byte_ms: null, between_bytes_ms: null, created_at: FROZEN_START,
    });
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([res.body]);
  });

  it('shows error_code null on request faults', async () => {
    const h = harness();
    expect((await addFault(h, { kind: 'error' })).body.error_code).toBeNull();
  });

  it.each([
    [{ kind: 'payroll_down', method: 'POST' }, 'method'],
    [{ kind: 'payroll_down', path: '/v1/sandbox/onboardings*' }, 'path'],
    [{ kind: 'payroll_down', latency_ms: 10 }, 'latency_ms'],
    [{ kind: 'payroll_down', retry_after_seconds: 2 }, 'retry_after_seconds'],
    [{ kind: 'payroll_down', error_code: 'Not A Code' }, 'error_code'],
    [{ kind: 'payroll_down', error_code: '' }, 'error_code'],
    [{ kind: 'error', error_code: 'bsn_rejected' }, 'error_code'],
  ])('refuses %j with 422 parameter_invalid on %s and adds nothing', async (body, param) => {
    const h = harness();
    expectError(await addFault(h, body), 422, 'invalid_request', 'parameter_invalid', param);
    expect(await faults(h)).toEqual([]);
  });
});

describe('payroll_down and /v1 requests', () => {
  it('is not a request fault: /v1 requests pass and leave it active', async () => {
    const h = harness();
    await addFault(h, { kind: 'payroll_down', count: 2 });
    for (const path of ['/v1/organization', '/v1/onboardings', '/v1/employees']) {
      expect((await h.as(KEYS.owner).get(path)).status).toBe(200);
    }
    expect(await faults(h)).toMatchObject([{ kind: 'payroll_down', remaining: 2 }]);
  });

  it('is skipped by request matching: a later request fault still applies', async () => {
    const h = harness();
    await addFault(h, { kind: 'payroll_down' });
    await addFault(h, { kind: 'error', method: 'GET', path: '/v1/organization' });
    expectError(await h.as(KEYS.owner).get('/v1/organization'), 500, 'api_error', 'internal_error');
    expect(await faults(h)).toMatchObject([{ kind: 'payroll_down', remaining: 1 }]);
  });
});

describe('payroll_down and the sandbox advance', () => {
  it('fails the next payroll run with the fault\'s error_code, is consumed, and the next onboarding completes', async () => {
    const h = harness();
    const a = await sandboxToProcessing(h);
    const b = await sandboxToProcessing(h);
    await addFault(h, { kind: 'payroll_down', error_code: 'nmbrs_timeout' });

    const failed = await advance(h, a);
    expect(failed.step).toBe('payroll_failed');
    expect(failed.onboarding.status).toBe('action_required');
    expect(failed.onboarding.payroll).toEqual({ status: 'failed', connector: 'nmbrs', external_id: null, error_code: 'nmbrs_timeout' });
    const last = (await events(h, a)).slice(-2);
    expect(last.map((e) => [e.type, e.data.error_code])).toEqual([
      ['integration.sync_failed', 'nmbrs_timeout'],
      ['onboarding.failed', 'nmbrs_timeout'],
    ]);
    expect(await faults(h)).toEqual([]);

    const completed = await advance(h, b);
    expect(completed.step).toBe('payroll_completed');
    expect(completed.onboarding.status).toBe('completed');
  });

  it('count 2 fails two runs; a resolve is no payroll run and does not consume it', async () => {
    const h = harness();
    const a = await sandboxToProcessing(h);
    const b = await sandboxToProcessing(h);
    const c = await sandboxToProcessing(h);
    await addFault(h, { kind: 'payroll_down', count: 2 });
    expect(codeOf(await advance(h, a))).toBe('payroll_connector_unavailable');
    const resolved = await advance(h, a);
    expect(resolved.step).toBe('payroll_resolved');
    expect(await faults(h)).toMatchObject([{ kind: 'payroll_down', remaining: 1 }]);
    expect((await advance(h, b)).step).toBe('payroll_failed');
    expect((await advance(h, c)).step).toBe('payroll_completed');
  });

  it('comes before the organization\'s payroll_failure switch, which applies again once the fault is used up', async () => {
    const h = harness();
    const patched = await h.http().patch('/_emulator/organizations/org_acme').send({ payroll_failure: { enabled: true, error_code: 'tax_table_missing' } });
    expect(patched.status).toBe(200);
    const a = await sandboxToProcessing(h);
    const b = await sandboxToProcessing(h);
    await addFault(h, { kind: 'payroll_down', error_code: 'from_the_fault' });
    expect(codeOf(await advance(h, a))).toBe('from_the_fault');
    expect(codeOf(await advance(h, b))).toBe('tax_table_missing');
  });

  it('stays until its runs are used or it is deleted: deleting it brings the connector back', async () => {
    const h = harness();
    const a = await sandboxToProcessing(h);
    const fault = (await addFault(h, { kind: 'payroll_down', count: 1000 })).body;
    expect((await h.http().delete(`/_emulator/faults/${fault.id}`)).status).toBe(200);
    expect((await advance(h, a)).step).toBe('payroll_completed');
  });

  it('belongs to its workspace: another workspace\'s payroll runs are untouched', async () => {
    const h = harness();
    const ws = (await h.http().post('/_emulator/workspaces')).body as { id: string; keys: { key: string }[] };
    const owner = ws.keys.find((k) => k.key.startsWith(`${KEYS.owner}_`))!.key;
    await h.http().post(`/_emulator/workspaces/${ws.id}/faults`).send({ kind: 'payroll_down' });
    const id = await createOnboarding(h);
    await advanceTimes(h, id, 9);
    expect((await advance(h, id)).step).toBe('payroll_completed');
    const other = await createOnboarding(h, owner);
    await advanceTimes(h, other, 9, owner);
    expect((await advance(h, other, owner)).step).toBe('payroll_failed');
  });
});

describe('payroll_down and POST /_emulator/onboardings/{id}/payroll/complete', () => {
  it('fails the run with the fault\'s code instead of completing; the fault is consumed', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toProcessing(h, id);
    await addFault(h, { kind: 'payroll_down' });
    const failed = await must(h, id, 'payroll/complete');
    expect(failed.status).toBe('action_required');
    expect(failed.payroll).toMatchObject({ status: 'failed', error_code: 'payroll_connector_unavailable' });
    expect((await events(h, id)).slice(-2).map((e) => e.type)).toEqual(['integration.sync_failed', 'onboarding.failed']);
    expect(await faults(h)).toEqual([]);
  });

  it('completes when no fault is active, whatever the organization\'s switch says', async () => {
    const h = harness();
    await h.http().patch('/_emulator/organizations/org_acme').send({ payroll_failure: { enabled: true } });
    const id = await createOnboarding(h);
    await toProcessing(h, id);
    expect((await must(h, id, 'payroll/complete')).payroll?.status).toBe('succeeded');
  });

  it('does not consume the fault when the action is refused (not processing)', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await addFault(h, { kind: 'payroll_down' });
    const res = await h.http().post(`/_emulator/onboardings/${id}/payroll/complete`);
    expectError(res, 409, 'conflict', 'not_processing');
    expect(await faults(h)).toMatchObject([{ kind: 'payroll_down', remaining: 1 }]);
  });
});
