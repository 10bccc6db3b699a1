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
  const call = async (role, method, path, body, extra = {}) => {
    const headers = { ...extra };
    if (role === 'invalid') headers.authorization = 'Bearer hrs_test_parity_no_such_key';
    else if (role !== 'none') headers.authorization = `Bearer ${WELL_KNOWN_KEYS[role]}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(new URL(path, base), { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
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
