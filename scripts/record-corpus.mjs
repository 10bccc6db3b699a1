// Records the shipped parity corpus (parity/corpus/) against an emulator started here with the
// default fixtures: each flow below is played through a recording client, and its exchanges,
// with the events of its onboardings, are written as a flow file by the kit's own recorder
// (keys as roles, ids bound by name, secrets masked). Run after `npm run build`:
//   node scripts/record-corpus.mjs
// Review the diff against the spec before committing it.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEmulator, WELL_KNOWN_KEYS } from '../dist/index.js';
import { recordFlow } from '../dist/parity/record.js';
import { EMULATOR_VERSION } from '../dist/core/product.js';

const OUT = fileURLToPath(new URL('../parity/corpus/', import.meta.url));
const ROLE = new Map(Object.entries(WELL_KNOWN_KEYS).map(([role, key]) => [key, role]));

/** A client whose every exchange is kept, with the key and ids as they are. */
function recorder(base) {
  const exchanges = [];
  // abandonAfterMs: the client stops waiting then, and the step is recorded with no answer.
  const call = async (role, method, path, body, extra = {}, abandonAfterMs = undefined) => {
    const headers = { ...extra };
    if (role === 'invalid') headers.authorization = 'Bearer hrs_test_parity_no_such_key';
    else if (role !== 'none') headers.authorization = `Bearer ${WELL_KNOWN_KEYS[role]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const sent = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    if (abandonAfterMs !== undefined) {
      await fetch(new URL(path, base), { ...sent, signal: AbortSignal.timeout(abandonAfterMs) }).then(() => { throw new Error(`${method} ${path} answered within ${abandonAfterMs} ms`); }, () => {});
      exchanges.push({ method, path, headers, ...(body === undefined ? {} : { body }), response: { status: 0, headers: {}, abandoned_after_ms: abandonAfterMs } });
      return { status: 0 };
    }
    const res = await fetch(new URL(path, base), sent);
    const text = await res.text();
    const parsed = /json/.test(res.headers.get('content-type') ?? '') && text ? JSON.parse(text) : text || undefined;
    const kept = {};
    for (const [k, v] of res.headers) kept[k] = v;
    exchanges.push({ method, path, headers, ...(body === undefined ? {} : { body }), response: { status: res.status, headers: kept, body: parsed } });
    return { status: res.status, body: parsed };
  };
  return { call, exchanges };
}

const newHire = (reference, extra = {}) => ({
  reference,
  metadata: { team: 'parity' },
  employee: { first_name: 'Iris', last_name: 'Visser', email: `${reference}@example.test` },
  employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1450 },
  ...extra,
});

/** The flows: name, what it shows, and how it is played. */
const FLOWS = [
  ['onboarding-life-cycle', 'An onboarding created with an idempotency key, read, changed, given a new link, and played by the sandbox advance to completed; its documents listed and one read.', async ({ call }) => {
    await call('owner', 'GET', '/v1/organization');
    const made = await call('owner', 'POST', '/v1/onboardings', newHire('parity-life-cycle'), { 'idempotency-key': 'parity-life-cycle-1' });
    await call('owner', 'POST', '/v1/onboardings', newHire('parity-life-cycle'), { 'idempotency-key': 'parity-life-cycle-1' });
    const id = made.body.id;
    await call('owner', 'GET', `/v1/onboardings/${id}`);
    await call('owner', 'PATCH', `/v1/onboardings/${id}`, { reference: 'parity-life-cycle-2', metadata: { cost_centre: 4200, team: null } });
    await call('owner', 'POST', `/v1/onboardings/${id}/hosted-link`, { expires_in_hours: 48, send_invitation: false });
    for (let i = 0; i < 12; i++) {
      const step = await call('owner', 'POST', `/v1/sandbox/onboardings/${id}/advance`);
      if (step.status !== 200) break;
    }
    const docs = await call('owner', 'GET', `/v1/onboardings/${id}/documents`);
    const json = docs.body.data.find((d) => d.kind !== 'contract') ?? docs.body.data[0];
    if (json) await call('owner', 'GET', `/v1/onboardings/${id}/documents/${json.id}`);
    await call('owner', 'GET', `/v1/onboardings/${id}`);
  }],
  ['cancel', 'An onboarding created and cancelled; a second cancel is refused.', async ({ call }) => {
    const made = await call('owner', 'POST', '/v1/onboardings', newHire('parity-cancel'));
    await call('owner', 'POST', `/v1/onboardings/${made.body.id}/cancel`);
    await call('owner', 'POST', `/v1/onboardings/${made.body.id}/cancel`);
    await call('owner', 'GET', `/v1/onboardings/${made.body.id}`);
  }],
  ['review-and-contract', 'The review through the API: open approvals, a review session, the identity check, approvals (one refused: a role the key does not hold), the contract, then the sandbox advance to completed.', async ({ call }) => {
    const { body: made } = await call('owner', 'POST', '/v1/onboardings', newHire('parity-review'));
    const id = made.id;
    await call('owner', 'POST', `/v1/onboardings/${id}/review-sessions`, { reviewer: { email: 'mark.manager@acme.test', external_id: 'user-42', name: 'Mark Manager' } });
    await call('owner', 'POST', `/v1/sandbox/onboardings/${id}/advance`);
    await call('owner', 'POST', `/v1/sandbox/onboardings/${id}/advance`);
    await call('manager', 'GET', '/v1/approvals');
    await call('manager', 'POST', `/v1/onboardings/${id}/review-sessions`, { reviewer: { email: 'mark.manager@acme.test', external_id: 'user-42', name: 'Mark Manager' } });
    const { body: now } = await call('manager', 'POST', `/v1/onboardings/${id}/identity-verification`);
    const version = now.data_version;
    await call('manager', 'POST', `/v1/onboardings/${id}/approvals`, { role: 'manager', data_version: version });
    await call('manager', 'POST', `/v1/onboardings/${id}/approvals`, { role: 'payroll_reviewer', data_version: version });
    await call('payroll', 'POST', `/v1/onboardings/${id}/approvals`, { role: 'payroll_reviewer', data_version: version });
    await call('owner', 'POST', `/v1/onboardings/${id}/approvals`, { role: 'owner', data_version: version });
    await call('owner', 'POST', `/v1/onboardings/${id}/contract`);
    for (let i = 0; i < 6; i++) if ((await call('owner', 'POST', `/v1/sandbox/onboardings/${id}/advance`)).status !== 200) break;
    await call('owner', 'GET', `/v1/onboardings/${id}`);
  }],
  ['invitations', 'An onboarding created with its invitation sent, then a new link sent to the employee.', async ({ call }) => {
    const { body: made } = await call('owner', 'POST', '/v1/onboardings', newHire('parity-invite', { options: { send_invitation: true, expires_in_hours: 72 } }));
    await call('owner', 'POST', `/v1/onboardings/${made.id}/hosted-link`, { expires_in_hours: 24, send_invitation: true });
    await call('owner', 'GET', `/v1/onboardings/${made.id}`);
  }],
  ['returned-for-correction', 'Returned to the employee for correction after submitting (set up through the emulator\'s control API), then submitted again.', async ({ call }) => {
    const { body: made } = await call('owner', 'POST', '/v1/onboardings', newHire('parity-returned'));
    await call('owner', 'POST', `/v1/sandbox/onboardings/${made.id}/advance`);
    await call('owner', 'POST', `/v1/sandbox/onboardings/${made.id}/advance`);
    await call('none', 'POST', `/_emulator/onboardings/${made.id}/return`, { to: 'employee', reason: 'The IBAN is of someone else' });
    await call('owner', 'GET', `/v1/onboardings/${made.id}`);
    await call('owner', 'POST', `/v1/sandbox/onboardings/${made.id}/advance`);
    await call('owner', 'GET', `/v1/onboardings/${made.id}`);
  }],
  ['terms-changed', 'The terms changed during the review (set up through the emulator\'s control API): the approvals lapse and are asked again.', async ({ call }) => {
    const { body: made } = await call('owner', 'POST', '/v1/onboardings', newHire('parity-terms'));
    await call('owner', 'POST', `/v1/sandbox/onboardings/${made.id}/advance`);
    await call('owner', 'POST', `/v1/sandbox/onboardings/${made.id}/advance`);
    await call('none', 'POST', `/_emulator/onboardings/${made.id}/change-terms`, { hours_per_week: 32 });
    await call('owner', 'GET', `/v1/onboardings/${made.id}`);
  }],
  ['payroll-fails', 'Payroll processing fails for the employer (set up through the emulator\'s control API, and set back at the end): the sandbox advance ends in action_required.', async ({ call }) => {
    await call('none', 'PATCH', '/_emulator/organizations/org_acme', { payroll_failure: { enabled: true, error_code: 'bsn_rejected' } });
    const { body: made } = await call('owner', 'POST', '/v1/onboardings', newHire('parity-payroll'));
    for (let i = 0; i < 12; i++) if ((await call('owner', 'POST', `/v1/sandbox/onboardings/${made.id}/advance`)).status !== 200) break;
    await call('owner', 'GET', `/v1/onboardings/${made.id}`);
    await call('owner', 'GET', '/v1/integrations');
    await call('none', 'PATCH', '/_emulator/organizations/org_acme', { payroll_failure: { enabled: false } });
  }],
  ['webhooks', 'A webhook address registered, read, listed, sent a ping, its deliveries listed and one retried, its secret rotated, then deleted; an unknown event name refused. Its deliveries are held for an hour (a delivery fault set through the emulator\'s control API, cleared at the end), so no answer depends on how far one got.', async ({ call }) => {
    await call('none', 'POST', '/_emulator/delivery-faults', { kind: 'delay', delay_ms: 3_600_000, url: 'https://hooks.example.test/*', count: 10 });
    const { body: hook } = await call('owner', 'POST', '/v1/webhooks', { url: 'https://hooks.example.test/parity', description: 'parity', events: ['onboarding.created', 'onboarding.completed'] });
    await call('owner', 'GET', `/v1/webhooks/${hook.id}`);
    await call('owner', 'GET', '/v1/webhooks');
    await call('owner', 'POST', `/v1/webhooks/${hook.id}/test`);
    const { body: deliveries } = await call('owner', 'GET', `/v1/webhooks/${hook.id}/deliveries`);
    if (deliveries.data[0]) await call('owner', 'POST', `/v1/webhooks/${hook.id}/deliveries/${deliveries.data[0].id}/retry`);
    await call('owner', 'POST', `/v1/webhooks/${hook.id}/rotate-secret`, { overlap_hours: 1 });
    await call('owner', 'POST', '/v1/webhooks', { url: 'https://hooks.example.test/parity-2', events: ['onboarding.hired'] });
    await call('owner', 'DELETE', `/v1/webhooks/${hook.id}`);
    await call('owner', 'GET', `/v1/webhooks/${hook.id}`);
    await call('none', 'DELETE', '/_emulator/delivery-faults');
  }],
  ['refusals', 'The refusals the spec names: no key, an unknown key, a missing scope, an unknown onboarding, personal data in metadata, a return_url not allowed, employee data in a PATCH, no subscription, API approvals off.', async ({ call }) => {
    await call('none', 'GET', '/v1/onboardings');
    await call('invalid', 'GET', '/v1/onboardings');
    await call('noscopes', 'GET', '/v1/onboardings');
    await call('readonly', 'POST', '/v1/onboardings', newHire('parity-readonly'));
    await call('owner', 'GET', '/v1/onboardings/onb_doesnotexist00000000');
    await call('owner', 'POST', '/v1/onboardings', newHire('parity-bsn', { metadata: { note: '111222333' } }));
    await call('owner', 'POST', '/v1/onboardings', newHire('parity-return-url', { options: { return_url: 'http://app.acme.test/onboarded' } }));
    const { body: made } = await call('owner', 'POST', '/v1/onboardings', newHire('parity-refusals'));
    await call('owner', 'PATCH', `/v1/onboardings/${made.id}`, { employee: { first_name: 'Other' } });
    await call('corner', 'POST', '/v1/onboardings', { ...newHire('parity-corner'), employment: { ...newHire('x').employment, location_id: 'loc_corner_main', template_id: 'tpl_corner_staff' } });
    const { body: bakker } = await call('bakker', 'POST', '/v1/onboardings', { ...newHire('parity-bakker'), employment: { ...newHire('x').employment, location_id: 'loc_bakker_haarlem', template_id: 'tpl_bakker_baker' } });
    await call('bakker', 'POST', `/v1/sandbox/onboardings/${bakker.id}/advance`);
    await call('bakker', 'POST', `/v1/sandbox/onboardings/${bakker.id}/advance`);
    await call('bakker', 'POST', `/v1/onboardings/${bakker.id}/identity-verification`);
  }],
  ['idempotency-in-progress', 'The same Idempotency-Key again while the first request still runs (held 2 s by a latency fault set through the emulator\'s control API; its client stops waiting after 300 ms): 409 idempotency_in_progress.', async ({ call }) => {
    await call('none', 'POST', '/_emulator/faults', { kind: 'latency', latency_ms: 2000, method: 'POST', path: '/v1/onboardings', count: 1 });
    await call('owner', 'POST', '/v1/onboardings', newHire('parity-in-progress'), { 'idempotency-key': 'parity-in-progress-1' }, 300);
    await call('owner', 'POST', '/v1/onboardings', newHire('parity-in-progress'), { 'idempotency-key': 'parity-in-progress-1' });
  }],
  ['partner', 'An API partner admitted by two employers: its organizations, one employer chosen with Service-Organization (required when there are two), its onboardings; a partner without a write scope refused.', async ({ call }) => {
    await call('hrsoft', 'GET', '/v1/organizations');
    await call('hrsoft', 'GET', '/v1/organization');
    await call('hrsoft', 'GET', '/v1/organization', undefined, { 'service-organization': 'org_acme' });
    await call('hrsoft', 'GET', '/v1/onboardings?limit=5', undefined, { 'service-organization': 'org_acme' });
    await call('payflow', 'POST', '/v1/onboardings', newHire('parity-payflow'));
  }],
  ['lists-and-paging', 'Lists read a page at a time: onboardings by status, employees, events of one type, each next page by its cursor.', async ({ call }) => {
    const { body: first } = await call('owner', 'GET', '/v1/onboardings?limit=1');
    if (first.next_cursor) await call('owner', 'GET', `/v1/onboardings?limit=1&starting_after=${first.next_cursor}`);
    await call('owner', 'GET', '/v1/onboardings?status=completed&limit=10');
    await call('owner', 'GET', '/v1/employees');
    await call('owner', 'GET', '/v1/events?type=onboarding.created&limit=2');
    await call('owner', 'GET', '/v1/onboardings?limit=500');
  }],
];

const em = createEmulator({ seed: 'parity-corpus' });
const { url } = await em.start(0, '127.0.0.1');
try {
  mkdirSync(OUT, { recursive: true });
  for (const f of readdirSync(OUT)) if (f.endsWith('.flow.json')) rmSync(new URL(f, `file://${OUT}`));
  for (const [i, [name, description, play]] of FLOWS.entries()) {
    const r = recorder(url);
    await play(r);
    const onboardings = new Set(r.exchanges.map((x) => x.response.body?.id).filter((id) => typeof id === 'string' && id.startsWith('onb_')));
    const listed = await (await fetch(new URL('/v1/events?limit=100', url), { headers: { authorization: `Bearer ${WELL_KNOWN_KEYS.owner}` } })).json();
    const events = listed.data.filter((e) => onboardings.has(e.data?.onboarding_id));
    const flow = recordFlow(r.exchanges, {
      flow: name,
      description,
      provenance: { recorded_at: new Date().toISOString(), target: 'onboarding-emulator, default fixtures', service_version: r.exchanges.find((x) => x.response.headers['service-version'])?.response.headers['service-version'], recorder: `scripts/record-corpus.mjs, onboarding-emulator ${EMULATOR_VERSION}` },
      roleOf: (key) => ROLE.get(key),
      events,
    });
    const file = `${String(i + 1).padStart(2, '0')}-${name}.flow.json`;
    writeFileSync(`${OUT}${file}`, `${JSON.stringify(flow, null, 2)}\n`);
    console.log(`${file}: ${flow.steps.length} steps, ${flow.events?.data.length ?? 0} events; statuses ${flow.steps.map((s) => s.response.status).join(' ')}`);
  }
} finally {
  await em.close();
}
