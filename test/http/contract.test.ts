import { describe, expect, it } from 'vitest';
import { harness, KEYS, expectError, type Harness } from '../support/harness.js';
import { advanceTimes, createOnboarding, eventTypes, inReview, readOnboarding } from '../support/sandbox-steps.js';

const contract = (h: Harness, id: string, key: string = KEYS.owner) => h.as(key).post(`/v1/onboardings/${id}/contract`);

/** Created and played by the sandbox to contract_ready (identity and three approvals). */
async function contractReady(h: Harness): Promise<string> {
  const id = await inReview(h);
  await advanceTimes(h, id, 4);
  expect((await readOnboarding(h, id)).status).toBe('contract_ready');
  return id;
}

describe('POST /v1/onboardings/{id}/contract', () => {
  it('sends the contract from contract_ready: 200 Onboarding awaiting the employee\'s signature', async () => {
    const h = harness();
    const id = await contractReady(h);
    const before = await eventTypes(h, id);
    const res = await contract(h, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      object: 'onboarding', id, status: 'awaiting_employee_signature', waiting_on: ['employee'], contract: { status: 'sent' },
    });
    expect(res.body.steps.find((s: { id: string }) => s.id === 'contract_sent').done).toBe(true);
    expect(res.body.documents.map((d: { kind: string }) => d.kind)).toContain('contract');
    expect(res.body).toEqual(await readOnboarding(h, id));
    expect(await eventTypes(h, id)).toEqual([...before, 'contract.sent']);
  });

  it('puts the contract mail in the outbox, linking to the base URL the caller used, without a code', async () => {
    const h = harness();
    const id = await contractReady(h);
    await contract(h, id);
    const mail = h.emulator.defaultWorkspace.outbox.filter((m) => m.onboarding_id === id);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: 'contract', to: 'lotte@example.test', code: null, environment: 'test' });
    expect(mail[0]!.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hosted\/\w+$/);
  });

  it.each([
    ['pending_employee', 0, 'contract_not_ready'],
    ['in_review', 2, 'contract_not_ready'],
    ['awaiting_employee_signature', 7, 'contract_not_ready'],
    ['processing', 9, 'contract_not_ready'],
    ['completed', 10, 'onboarding_completed'],
  ] as const)('is refused in %s with 409 %s, writing nothing', async (status, steps, code) => {
    const h = harness();
    const id = await createOnboarding(h);
    await advanceTimes(h, id, steps);
    expect((await readOnboarding(h, id)).status).toBe(status);
    const before = h.storeJson();
    const outbox = h.emulator.defaultWorkspace.outbox.length;
    expectError(await contract(h, id), 409, 'conflict', code);
    expect(h.storeJson()).toBe(before);
    expect(h.emulator.defaultWorkspace.outbox.length).toBe(outbox);
  });

  it('is refused twice: the second call finds the contract already sent', async () => {
    const h = harness();
    const id = await contractReady(h);
    expect((await contract(h, id)).status).toBe(200);
    expectError(await contract(h, id), 409, 'conflict', 'contract_not_ready');
  });

  it('is refused on a cancelled onboarding with 409 onboarding_cancelled', async () => {
    const h = harness();
    const id = await contractReady(h);
    expect((await h.as(KEYS.owner).post(`/v1/onboardings/${id}/cancel`)).status).toBe(200);
    expectError(await contract(h, id), 409, 'conflict', 'onboarding_cancelled');
  });

  it('needs contracts:write', async () => {
    const h = harness();
    const id = await contractReady(h);
    expectError(await contract(h, id, KEYS.recruiter), 403, 'permission_error', 'scope_missing');
    expectError(await contract(h, id, KEYS.readonly), 403, 'permission_error', 'scope_missing');
    // HR Soft's key does not carry the scope at all.
    expectError(await h.asPartnerFor(KEYS.hrsoft, 'org_acme').post(`/v1/onboardings/${id}/contract`), 403, 'permission_error', 'scope_missing');
  });

  it('answers 404 for unknown, foreign and other-environment onboardings', async () => {
    const h = harness();
    const id = await contractReady(h);
    expectError(await contract(h, 'onb_nope'), 404, 'not_found', 'resource_not_found');
    expectError(await contract(h, id, KEYS.bakker), 404, 'not_found', 'resource_not_found');
    expectError(await contract(h, id, KEYS.live), 404, 'not_found', 'resource_not_found');
  });

  it('takes no body', async () => {
    const h = harness();
    const id = await contractReady(h);
    expectError(await h.as(KEYS.owner).post(`/v1/onboardings/${id}/contract`, { template: 'x' }), 422, 'invalid_request', 'parameter_unknown');
    expect((await h.as(KEYS.owner).post(`/v1/onboardings/${id}/contract`, {})).status).toBe(200);
  });

  it('any reviewer key may send it: no role is needed, only the scope', async () => {
    const h = harness();
    const id = await contractReady(h);
    expect((await contract(h, id, KEYS.payroll)).status).toBe(200);
  });
});
