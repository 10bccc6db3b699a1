import { describe, expect, it } from 'vitest';
import { harness, KEYS, type Harness } from '../support/harness.js';
import { must, toProcessing } from '../support/control.js';
import { advance, advanceTimes, createOnboarding, readOnboarding } from '../support/sandbox-steps.js';

/**
 * The payroll outcome a scenario scripts is one input of the single decision every payroll
 * run goes through (onboardings.payroll.ts): the sandbox and the autopilot honour it, a
 * payroll_down fault overrides it, and payroll/complete asks for success whatever it says.
 */

const employee = (email: string) => ({ employee: { first_name: 'Test', last_name: 'Person', email } });

async function load(h: Harness, payroll: Record<string, unknown>) {
  const res = await h.http().put('/_emulator/scenario').send({ name: 'payroll', rules: [{ match: { email: 'scripted@*' }, payroll }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Nine sandbox steps take a new onboarding to processing; the tenth is the payroll run. */
async function sandboxPayrollRun(h: Harness, email: string) {
  const id = await createOnboarding(h, KEYS.owner, employee(email));
  expect((await advanceTimes(h, id, 9))[8]).toBe('employer_signed');
  return advance(h, id);
}

const setSwitch = async (h: Harness, enabled: boolean) =>
  expect((await h.http().patch('/_emulator/organizations/org_acme').send({ payroll_failure: { enabled, error_code: 'from_the_switch' } })).status).toBe(200);

describe('the sandbox advance and a scripted payroll outcome', () => {
  it('fails the run with the scripted error_code for an onboarding the scenario drives, and only for it', async () => {
    const h = harness();
    await load(h, { outcome: 'failure', error_code: 'bsn_invalid' });
    const failed = await sandboxPayrollRun(h, 'scripted@example.com');
    expect(failed.step).toBe('payroll_failed');
    expect(failed.onboarding.payroll).toMatchObject({ status: 'failed', error_code: 'bsn_invalid' });
    expect((await sandboxPayrollRun(h, 'someone.else@example.com')).step).toBe('payroll_completed');
  });

  it('uses payroll_rejected when the failure names no code, as the magic payroll-fail@ address does', async () => {
    const h = harness();
    await load(h, { outcome: 'failure' });
    expect((await sandboxPayrollRun(h, 'scripted@example.com')).onboarding.payroll).toMatchObject({ error_code: 'payroll_rejected' });
    const magic = await sandboxPayrollRun(h, 'payroll-fail@example.com');
    expect(magic.step).toBe('payroll_failed');
    expect(magic.onboarding.payroll).toMatchObject({ error_code: 'payroll_rejected' });
  });

  it("a scripted success wins over the organization's payroll_failure switch; a rule silent on the outcome leaves it to the switch", async () => {
    const h = harness();
    await setSwitch(h, true);
    await load(h, { outcome: 'success' });
    expect((await sandboxPayrollRun(h, 'scripted@example.com')).step).toBe('payroll_completed');
    await load(h, { connector: 'loket' });
    const silent = await sandboxPayrollRun(h, 'scripted@example.com');
    expect(silent.step).toBe('payroll_failed');
    expect(silent.onboarding.payroll).toMatchObject({ connector: 'loket', error_code: 'from_the_switch' });
  });

  it('a payroll_down fault comes first: the scripted success fails with the fault\'s code', async () => {
    const h = harness();
    await load(h, { outcome: 'success' });
    expect((await h.http().post('/_emulator/faults').send({ kind: 'payroll_down' })).status).toBe(201);
    expect((await sandboxPayrollRun(h, 'scripted@example.com')).onboarding.payroll).toMatchObject({ error_code: 'payroll_connector_unavailable' });
  });
});

describe('the autopilot and the payroll decision', () => {
  it('a payroll_down fault set while the run is planned fails the scripted run, and is consumed', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner, employee('happy-path@example.com'));
    expect((await h.http().post('/_emulator/faults').send({ kind: 'payroll_down', error_code: 'nmbrs_timeout' })).status).toBe(201);
    expect((await h.http().post('/_emulator/clock/advance').send({ by: '10d' })).status).toBe(200);
    const onboarding = await readOnboarding(h, id);
    expect(onboarding.status).toBe('action_required');
    expect(onboarding.payroll).toMatchObject({ status: 'failed', error_code: 'nmbrs_timeout' });
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([]);
  });

  it('payroll/complete is a requested run: it completes an onboarding whose script says failure', async () => {
    const h = harness();
    await load(h, { outcome: 'failure', after: 'never' });
    const id = await createOnboarding(h, KEYS.owner, employee('scripted@example.com'));
    await toProcessing(h, id);
    expect((await must(h, id, 'payroll/complete')).payroll).toMatchObject({ status: 'succeeded' });
  });
});
