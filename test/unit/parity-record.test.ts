import { describe, expect, it } from 'vitest';
import { flowProblems } from '../../src/parity/corpus.js';
import { recordFlow, type Exchange } from '../../src/parity/record.js';

/**
 * Exchanges made into a flow: ids a later request reuses bound by name where they were
 * answered, a body that sends an answer back bound to it whole, keys written as roles, and no
 * key or secret left in what would be written.
 */
const provenance = { recorded_at: '2026-11-29T12:00:00.000Z', target: 'http://127.0.0.1:4010', recorder: 'test' };
const KEY = 'hrs_test_acme_owner';
const OTHER = 'hrs_test_someone_else_42';
const SECRET = 'whsec_planted0123456789abcdef';
const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

const exchanges: Exchange[] = [
  { method: 'POST', path: '/v1/onboardings', headers: auth(KEY), body: { reference: 'r', note: `call me with ${OTHER}` }, response: { status: 201, headers: {}, body: { id: 'onb_Abc123def456', status: 'pending_employee' } } },
  { method: 'GET', path: '/v1/onboardings/onb_Abc123def456?expand=x', headers: { ...auth(OTHER), 'x-api-key': OTHER }, response: { status: 200, headers: {}, body: { id: 'onb_Abc123def456' } } },
  { method: 'POST', path: '/v1/webhooks', headers: auth(KEY), body: { url: 'https://hooks.example.test/a' }, response: { status: 201, headers: {}, body: { id: 'wh_Zyx987wvu654', secret: SECRET } } },
  { method: 'GET', path: '/_emulator/2024', headers: {}, response: { status: 200, headers: {}, body: { state: { n: 1 } } } },
  { method: 'PUT', path: '/_emulator/snapshot', headers: { 'content-type': 'application/json' }, body: { state: { n: 1 } }, response: { status: 200, headers: {}, body: { restored: true } } },
  { method: 'GET', path: '/v1/organization', headers: { authorization: 'Bearer hrs_test_nobody' }, response: { status: 401, headers: {}, body: { error: { code: 'api_key_invalid' } } } },
];

describe('recordFlow', () => {
  const flow = recordFlow(exchanges, { flow: 'planted', provenance });
  const text = JSON.stringify(flow);

  it('is a flow a corpus can hold', () => {
    expect(flowProblems(flow)).toEqual([]);
  });

  it('binds a reused id by name where it was answered, and names the keys by role', () => {
    expect(flow.steps[0]!.bind).toEqual({ onboarding: '$.id' });
    expect(flow.steps[1]!.request).toMatchObject({ path: '/v1/onboardings/{{onboarding}}?expand=x', key: 'key2' });
    expect(flow.steps[0]!.request.key).toBeUndefined();
    expect(flow.steps[5]!.request.key).toBe('invalid');
  });

  it('sends an answer back whole by its name, a name even where the path ends in digits', () => {
    expect(flow.steps[3]!.bind).toEqual({ answer: '$' });
    expect(flow.steps[4]!.request.body).toBe('{{answer}}');
  });

  it('writes no key or secret: in a body, a header it keeps or leaves out, an answer', () => {
    for (const planted of [KEY, OTHER, SECRET, 'hrs_test_nobody']) expect(text).not.toContain(planted);
    expect(flow.steps[2]!.response.body).toMatchObject({ secret: expect.stringMatching(/^whsec_…/) as unknown });
  });
});
