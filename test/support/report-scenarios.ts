import { expect } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import type { ScenarioDocument } from '../../src/scenarios/scenario.schemas.js';

/** The scenarios whose reports the JSON, JUnit and CTRF tests read alike. */

/** A whole journey in a day, four kinds of expectation: met, missed, after an event, never. */
export const EXPECTING: ScenarioDocument = {
  name: 'expecting',
  rules: [{
    match: { all: true },
    employee: { opens: '1h', submits: '30m', signs: '2h' },
    review: { identity_check: '15m', approvals: '1h' },
    contract: { sent: '10m', employer_signs: '1h' },
    payroll: { outcome: 'success', after: '5m' },
  }],
  expect: [
    { name: 'completed within a day', onboarding: { match: { reference: 'keyed*' }, reaches: 'completed', within: '1d' } },
    { name: 'completed within an hour', onboarding: { match: { reference: 'keyed*' }, reaches: 'completed', within: '1h' } },
    { name: 'read after completion', after: { event: 'onboarding.completed', request: { method: 'GET', path: '/v1/onboardings/{onboarding_id}' }, within: '10m' } },
    { name: 'no keyless create', never: { method: 'POST', path: '/v1/onboardings', has_idempotency_key: false } },
  ],
};

/** Two reaches within 2h (in review, contract ready) for onboardings referenced REPORT-*. */
const REPORTED: ScenarioDocument = {
  name: 'reported',
  rules: [{ match: { all: true }, employee: { opens: '1h', submits: '30m' } }],
  expect: [
    { name: 'in review within 2h', onboarding: { match: { reference: 'REPORT-*' }, reaches: 'in_review', within: '2h' } },
    { name: 'contract within 2h', onboarding: { match: { reference: 'REPORT-*' }, reaches: 'contract_ready', within: '2h' } },
  ],
};

/**
 * An emulator on a frozen clock with REPORTED loaded and one REPORT-1 onboarding created over
 * HTTP; pushed on `started` for the caller's afterEach to close.
 */
export async function reportedRun(started: InProcessEmulator[], idempotencyKey: string): Promise<{ em: InProcessEmulator; url: string; id: string }> {
  const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' } });
  started.push(em);
  const { url } = await em.start(0);
  await em.scenario.load(REPORTED);
  const res = await fetch(`${url}/v1/onboardings`, {
    method: 'POST',
    headers: { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
    body: JSON.stringify({
      reference: 'REPORT-1',
      employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
      employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
    }),
  });
  expect(res.status).toBe(201);
  return { em, url, id: ((await res.json()) as { id: string }).id };
}
