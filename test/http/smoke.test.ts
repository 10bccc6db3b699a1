import { describe, expect, it } from 'vitest';
import { createBody, envelope, harness, KEYS } from '../support/harness.js';

describe('smoke', () => {
  it('creates and reads back an onboarding', async () => {
    const h = harness();
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(created.status).toBe(201);
    const read = await h.as(KEYS.owner).get(`/v1/onboardings/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.employee.email).toBe('lotte@example.test');
  });

  it('answers an unknown key with 401 in the envelope', async () => {
    const res = await harness().as('hrs_test_nope').get('/v1/onboardings');
    expect(res.status).toBe(401);
    expect(envelope(res).code).toBe('api_key_invalid');
  });
});
