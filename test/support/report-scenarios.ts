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
export const REPORTED: ScenarioDocument = {
  name: 'reported',
  rules: [{ match: { all: true }, employee: { opens: '1h', submits: '30m' } }],
  expect: [
    { name: 'in review within 2h', onboarding: { match: { reference: 'REPORT-*' }, reaches: 'in_review', within: '2h' } },
    { name: 'contract within 2h', onboarding: { match: { reference: 'REPORT-*' }, reaches: 'contract_ready', within: '2h' } },
  ],
};
