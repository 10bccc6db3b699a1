import { describe, expect, it } from 'vitest';
import { MAGIC_ADDRESSES } from '../../src/scenarios/scenario.magic.js';
import { harness, KEYS, type Harness } from '../support/harness.js';
import { createOnboarding, eventTypes, readOnboarding } from '../support/sandbox-steps.js';

/** Magic e-mail addresses play their outcome with no scenario loaded. */

const withEmail = (email: string) => ({ employee: { first_name: 'Test', last_name: 'Person', email } });

async function advance(h: Harness, by: string) {
  const res = await h.http().post('/_emulator/clock/advance').send({ by });
  expect(res.status).toBe(200);
}

async function finalOf(email: string, by = '10d', key: string = KEYS.owner) {
  const h = harness();
  const id = await createOnboarding(h, key, withEmail(email));
  await advance(h, by);
  return { h, id, onboarding: await readOnboarding(h, id, key) };
}

describe('magic e-mail addresses', () => {
  it('happy-path@ completes the journey', async () => {
    const { onboarding } = await finalOf('happy-path@example.com');
    expect(onboarding.status).toBe('completed');
  });

  it('payroll-fail@ ends in action_required with payroll_rejected; the +tag and the case do not matter', async () => {
    for (const email of ['payroll-fail@example.com', 'Payroll-Fail+anna@corp.example']) {
      const { onboarding } = await finalOf(email);
      expect(onboarding.status).toBe('action_required');
      expect(onboarding.payroll).toMatchObject({ status: 'failed', error_code: 'payroll_rejected' });
    }
  });

  it('payroll-fail-recover@ fails, then is resolved a day later', async () => {
    const { onboarding } = await finalOf('payroll-fail-recover@example.com');
    expect(onboarding.status).toBe('completed');
    expect(onboarding.payroll).toMatchObject({ status: 'resolved', error_code: 'payroll_rejected' });
  });

  it('never-opens@ stays waiting for the employee; never-submits@ stops after opening', async () => {
    const never = await finalOf('never-opens@example.com');
    expect(never.onboarding.status).toBe('pending_employee');
    expect(await eventTypes(never.h, never.id)).toEqual(['onboarding.created']);
    const opened = await finalOf('never-submits@example.com');
    expect(await eventTypes(opened.h, opened.id)).toEqual(['onboarding.created', 'onboarding.started']);
  });

  it('returned@ and returned-to-manager@ are returned once, then complete with a newer data version', async () => {
    const toEmployee = await finalOf('returned@example.com');
    expect(toEmployee.onboarding.status).toBe('completed');
    expect((await eventTypes(toEmployee.h, toEmployee.id)).filter((t) => t === 'onboarding.returned')).toHaveLength(1);
    expect(toEmployee.onboarding.data_version).toBe(3);
    const toManager = await finalOf('returned-to-manager@example.com');
    expect(toManager.onboarding.status).toBe('completed');
    expect(toManager.onboarding.data_version).toBe(3);
  });

  it('terms-changed@ changes the wage after approval; never-approved@ waits in review; slow-employer@ waits for the signature', async () => {
    const terms = await finalOf('terms-changed@example.com');
    expect(terms.onboarding.status).toBe('completed');
    expect((terms.onboarding.employment as { hourly_wage_cents: number }).hourly_wage_cents).toBe(2500);
    const review = await finalOf('never-approved@example.com');
    expect(review.onboarding.status).toBe('in_review');
    const slow = await finalOf('slow-employer@example.com', '2d');
    expect(slow.onboarding.status).toBe('awaiting_employer_signature');
  });

  it('every documented address is listed by GET /_emulator/scenario', async () => {
    const h = harness();
    const res = await h.http().get('/_emulator/scenario');
    expect(res.body.magic_addresses.map((m: { address: string }) => m.address.split('@')[0])).toEqual(Object.keys(MAGIC_ADDRESSES));
  });

  it('an ordinary address, an address that merely contains a magic word, and live onboardings are not played', async () => {
    for (const email of ['anna@example.com', 'not-payroll-fail@example.com']) {
      const { onboarding } = await finalOf(email);
      expect(onboarding.status).toBe('pending_employee');
    }
    const live = await finalOf('happy-path@example.com', '10d', KEYS.live);
    expect(live.onboarding.status).toBe('pending_employee');
  });

  it('a loaded scenario rule that matches wins over the magic address', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send({ rules: [{ match: { email: 'payroll-fail@*' }, employee: { opens: 'never' } }] }).expect(200);
    const id = await createOnboarding(h, KEYS.owner, withEmail('payroll-fail@example.com'));
    await advance(h, '10d');
    expect((await readOnboarding(h, id)).status).toBe('pending_employee');
  });
});
