import { describe, expect, it } from 'vitest';
import { createBody, FROZEN_START, harness, KEYS } from '../support/harness.js';

/**
 * Scenario match patterns against values of any length, over HTTP: a many-star pattern and a
 * very long name used to backtrack for seconds (2.5 s at 2,500 letters, growing with the cube
 * of the length) on every creation and every report; now both answer at once.
 */
describe('scenario match patterns', () => {
  it('decide a many-star pattern against a 100,000-letter name at once, on creation and in the report', { timeout: 10_000 }, async () => {
    const h = harness({ seed: 1, clock: { mode: 'frozen', start: FROZEN_START } });
    const scenario = {
      version: 1,
      name: 'globs',
      rules: [{ name: 'stars', match: { name: '*a*a*b' }, employee: { opens: '1h' } }],
      expect: [{ name: 'starred ones complete', onboarding: { match: { name: '*a*a*b' }, reaches: 'completed', within: '1d' } }],
    };
    await h.http().put('/_emulator/scenario').send(scenario).expect(200);
    const long = 'a'.repeat(100_000);
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ employee: { first_name: long, last_name: 'a', email: 'long@example.test' } }));
    expect(res.status).toBe(201);
    const report = await h.http().get('/_emulator/scenario/report');
    expect(report.status).toBe(200);
    const onboarding = await h.http().get(`/_emulator/onboardings/${res.body.id as string}`);
    expect(onboarding.status).toBe(200);
  });
});
