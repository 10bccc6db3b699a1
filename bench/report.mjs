// How long the scenario report takes on a busy workspace: 100 expectations (onboarding,
// delivered, after and never), 300 onboardings played to the end by the happy-path scenario
// with a webhook address taking every event, and a full request journal (1,000 entries).
// Target: GET /_emulator/scenario/report (JSON and JUnit) in at most 200 ms, median of 5.
// In process, on the built package (npm run build first; npm run bench does).
//
//   node bench/report.mjs
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib.mjs';

const { createEmulator } = await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href);

const receiver = createServer((req, res) => req.resume().on('end', () => res.end())).listen(0, '127.0.0.1');
await new Promise((r) => receiver.once('listening', r));
const hook = `http://127.0.0.1:${receiver.address().port}/hooks`;

const kinds = [
  (i) => ({ name: `o${i}`, onboarding: { match: { reference: `R-${i % 10}*` }, reaches: 'completed', within: '2d' } }),
  (i) => ({ name: `d${i}`, delivered: { event: 'onboarding.completed', within: '1h' } }),
  (i) => ({ name: `a${i}`, after: { event: 'onboarding.created', request: { method: 'GET', path: '/v1/onboardings/{onboarding_id}' }, within: '1h' } }),
  (i) => ({ name: `n${i}`, never: { method: 'DELETE', path: '/v1/onboardings*' } }),
];
const scenario = {
  version: 1,
  name: 'report-bench',
  rules: [{ name: 'all', match: { all: true }, employee: { opens: '1h', submits: '30m', signs: '2h' }, review: { identity_check: '15m', approvals: '1h' }, contract: { sent: '10m', employer_signs: '1h' }, payroll: { outcome: 'success', after: '5m' } }],
  expect: Array.from({ length: 100 }, (_, i) => kinds[i % kinds.length](i)),
};

const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' }, scenario });
const { url } = await em.start(0);
const headers = { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' };
await fetch(`${url}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: hook }) });
for (let i = 0; i < 300; i++) {
  const body = {
    reference: `R-${i}`,
    employee: { first_name: 'Bench', last_name: `Person ${i}`, email: `bench${i}@example.test` },
    employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
  };
  const created = await (await fetch(`${url}/v1/onboardings`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
  await fetch(`${url}/v1/onboardings/${created.id}`, { headers });
}
await em.clock.advance('2d');
for (let i = 0; i < 1000; i++) await fetch(`${url}/v1/onboardings?limit=1`, { headers });

const time = async (suffix) => {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const began = performance.now();
    const res = await fetch(`${url}/_emulator/scenario/report${suffix}`);
    await res.text();
    runs.push(performance.now() - began);
  }
  return runs.sort((a, b) => a - b)[2];
};
const json = await time('');
const junit = await time('?format=junit');
const events = (await (await fetch(`${url}/_emulator/events?limit=1`)).json()).total;
console.log(`scenario report: 100 expectations, 300 onboardings, ${events} events, a full journal`);
console.log(`  JSON  median of 5: ${json.toFixed(1)} ms (target at most 200 ms)${json <= 200 ? '' : '  MISSED'}`);
console.log(`  JUnit median of 5: ${junit.toFixed(1)} ms (target at most 200 ms)${junit <= 200 ? '' : '  MISSED'}`);
await em.close();
receiver.close();
