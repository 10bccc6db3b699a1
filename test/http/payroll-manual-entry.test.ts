import { describe, expect, it } from 'vitest';
import { expectError, harness, KEYS, type Harness } from '../support/harness.js';
import { act, events } from '../support/control.js';
import { advanceTimes, createOnboarding } from '../support/sandbox-steps.js';

/**
 * Bakkerij Bakker enters employees into payroll by hand (connector `manual`). The spec sends
 * integration.sync_failed and onboarding.failed "not for manual entry", so nothing may fail
 * such a run: not the organization's switch, not a scenario, not a payroll_down fault.
 */

const BAKER = {
  employment: { position: 'Baker', start_date: '2026-12-01', location_id: 'loc_bakker_haarlem', template_id: 'tpl_bakker_baker', hours_per_week: 38, hourly_wage_cents: 1600 },
};

async function bakkerToProcessing(h: Harness): Promise<string> {
  const id = await createOnboarding(h, KEYS.bakker, BAKER);
  expect((await advanceTimes(h, id, 8, KEYS.bakker)).at(-1)).toBe('employer_signed');
  return id;
}

const switchOn = async (h: Harness) =>
  expect((await h.http().patch('/_emulator/organizations/org_bakker').send({ payroll_failure: { enabled: true, error_code: 'bsn_rejected' } })).status).toBe(200);

const FAILURE_EVENTS = ['integration.sync_failed', 'onboarding.failed'];

describe('payroll by manual entry never fails', () => {
  it('completes through the sandbox with the failure switch on, with no failure event', async () => {
    const h = harness();
    await switchOn(h);
    const id = await bakkerToProcessing(h);
    expect(await advanceTimes(h, id, 1, KEYS.bakker)).toEqual(['payroll_completed']);
    const got = await events(h, id, KEYS.bakker);
    expect(got.map((e) => e.type).filter((t) => FAILURE_EVENTS.includes(t))).toEqual([]);
    expect(got.find((e) => e.type === 'integration.sync_succeeded')?.data).toMatchObject({ connector: 'manual', onboarding_id: id });
    expect(got.at(-1)?.type).toBe('onboarding.completed');
  });

  it('leaves a payroll_down fault to the next run of a real connector', async () => {
    const h = harness();
    expect((await h.http().post('/_emulator/faults').send({ kind: 'payroll_down' })).status).toBe(201);
    const id = await bakkerToProcessing(h);
    expect(await advanceTimes(h, id, 1, KEYS.bakker)).toEqual(['payroll_completed']);
    expect((await h.http().get('/_emulator/faults')).body.data).toMatchObject([{ kind: 'payroll_down', remaining: 1 }]);
    // Acme's nmbrs connector takes the fault.
    const acme = await createOnboarding(h);
    expect((await advanceTimes(h, acme, 10)).at(-1)).toBe('payroll_failed');
  });

  it('refuses payroll/fail with 409 payroll_manual_entry and changes nothing', async () => {
    const h = harness();
    const id = await bakkerToProcessing(h);
    const before = h.storeJson();
    expectError(await act(h, id, 'payroll/fail', { error_code: 'bsn_rejected' }), 409, 'conflict', 'payroll_manual_entry');
    expect(h.storeJson()).toBe(before);
  });

  it('completes in a scenario that scripts a failure, under the step name payroll_completed', async () => {
    const h = harness();
    const scenario = {
      version: 1,
      rules: [{
        name: 'fails', match: { all: true },
        employee: { opens: '1m', submits: '1m', signs: '1m' }, review: { identity_check: '1m', approvals: '1m' }, contract: { sent: '1m', employer_signs: '1m' },
        payroll: { outcome: 'failure', error_code: 'bsn_rejected', after: '1m' },
      }],
    };
    const put = await h.http().put('/_emulator/scenario').send(scenario);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const id = await createOnboarding(h, KEYS.bakker, BAKER);
    await h.http().post('/_emulator/clock/advance').send({ by: '2d' });
    const record = (await h.as(KEYS.bakker).get(`/v1/onboardings/${id}`)).body;
    expect(record).toMatchObject({ status: 'completed', payroll: { status: 'succeeded', connector: 'manual', error_code: null } });
    expect((await events(h, id, KEYS.bakker)).map((e) => e.type).filter((t) => FAILURE_EVENTS.includes(t))).toEqual([]);
  });

  it('shows the manual connector as connected in GET /v1/integrations while the switch is on', async () => {
    const h = harness();
    await switchOn(h);
    const res = await h.as(KEYS.bakker).get('/v1/integrations');
    expect(res.body.data).toMatchObject([{ connector: 'manual', status: 'connected' }]);
  });
});
