// Webhook delivery benchmarks (targets in docs/benchmarks.md), in this process on the built
// code (dist/), every receiver on 127.0.0.1:
//   (a) 1,000 events to a dead receiver (an address on a closed port: connection refused), then
//       advancing the workspace clock 2 days so that every attempt runs: 1 + 7 retries each,
//       8,000 real connection attempts (target: under 10 s);
//   (b) one event fanned out to 20 addresses of a live receiver: the time from the event until
//       all 20 deliveries succeeded (repeated; median reported).
// Run with `npm run bench` (after the others) or `npm run build && node bench/webhooks.mjs`.
// Figures go to stdout and, under the key `webhooks`, to bench/results.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { Emulator } = await import(`${ROOT}dist/emulator.js`);
const { actFor, findCaller } = await import(`${ROOT}dist/resources/organizations/organizations.access.js`);
const { createOnboarding } = await import(`${ROOT}dist/resources/onboardings/onboardings.service.js`);
const { createWebhook } = await import(`${ROOT}dist/resources/webhooks/webhooks.service.js`);

const KEY = 'hrs_test_acme_owner';
const DAY = 86_400_000;
const EVENTS = 1_000;
const ADDRESSES = 20;
const FANOUT_ROUNDS = 25;
const TARGET_DEAD_MS = 10_000;

// Bounded: a hang anywhere ends the run with a clear message instead of blocking `npm run bench`.
const guard = setTimeout(() => {
  console.error('bench/webhooks.mjs: gave up after 120 s');
  process.exit(1);
}, 120_000);
guard.unref();

const body = (i) => ({
  reference: `bench-${i}`,
  metadata: { batch: 'webhooks' },
  employee: { first_name: 'Bench', last_name: `Person ${i}`, email: `bench${i}@example.test` },
  employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
});

/** A fresh emulator on a frozen clock; events and addresses made through the in-process services. */
function freshWorkspace(seed) {
  const emulator = new Emulator({ seed, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
  const ws = emulator.defaultWorkspace;
  const caller = findCaller(ws.store, KEY, undefined);
  const writer = actFor(ws.store, caller, undefined, 'onboardings:write');
  const manager = actFor(ws.store, caller, undefined, 'webhooks:manage');
  return {
    ws,
    event: (i) => createOnboarding(ws, writer, body(i)), // one onboarding.created event each
    address: (url) => createWebhook(ws, manager, { url, events: ['onboarding.created'] }),
  };
}

function listen(handler) {
  const server = http.createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
const close = (server) =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x, digits = 1) => +x.toFixed(digits);

// ---- (a) 1,000 events to a dead receiver ----
const dead = {};
{
  // A port that was free a moment ago: nothing listens there, so every attempt is refused.
  const probe = await listen(() => undefined);
  const port = probe.address().port;
  await close(probe);

  const { ws, event, address } = freshWorkspace('webhooks-dead');
  const endpoint = address(`http://127.0.0.1:${port}/hook`);
  let t = performance.now();
  for (let i = 0; i < EVENTS; i++) event(i);
  const createMs = performance.now() - t;

  t = performance.now();
  const fired = await ws.scheduler.advanceBy(2 * DAY);
  const advanceMs = performance.now() - t;

  const mine = ws.store.deliveries.values().filter((d) => d.endpoint_id === endpoint.id);
  const attempts = mine.reduce((n, d) => n + d.attempts, 0);
  const statuses = {};
  for (const d of mine) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
  const errors = [...new Set(mine.map((d) => d.last_error))];
  Object.assign(dead, {
    events: EVENTS,
    deliveries: mine.length,
    attempts,
    attempt_timers_fired: fired.filter((f) => f.kind === 'webhook.attempt').length,
    statuses,
    last_errors: errors,
    address_status_after: ws.store.webhooks.get(endpoint.id).status,
    create_events_ms: round(createMs),
    advance_2_days_ms: round(advanceMs),
    attempts_per_s: Math.round(attempts / (advanceMs / 1000)),
    target_max_ms: TARGET_DEAD_MS,
    met: advanceMs < TARGET_DEAD_MS && attempts === EVENTS * 8,
  });
  if (attempts !== EVENTS * 8) console.error(`  expected ${EVENTS * 8} attempts, counted ${attempts}`);
}

// ---- (b) one event fanned out to 20 addresses of a live receiver ----
const fanout = {};
{
  let received = 0;
  const server = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  const base = `http://127.0.0.1:${server.address().port}`;
  const { ws, event, address } = freshWorkspace('webhooks-fanout');
  const endpoints = Array.from({ length: ADDRESSES }, (_, i) => address(`${base}/hook/${i}`));
  const ids = new Set(endpoints.map((e) => e.id));

  const runs = [];
  let allSucceeded = true;
  for (let r = 0; r < FANOUT_ROUNDS; r++) {
    const before = received;
    const t = performance.now();
    const created = event(r);
    await ws.scheduler.advanceBy(0); // runs the 20 first attempts and waits until they finished
    runs.push(performance.now() - t);
    const ofEvent = ws.store.deliveries
      .values()
      .filter((d) => ids.has(d.endpoint_id) && d.event_type === 'onboarding.created' && JSON.parse(d.body).data.onboarding_id === created.id);
    if (ofEvent.length !== ADDRESSES || ofEvent.some((d) => d.status !== 'succeeded') || received - before !== ADDRESSES) allSucceeded = false;
  }
  await close(server);
  Object.assign(fanout, {
    addresses: ADDRESSES,
    rounds: FANOUT_ROUNDS,
    all_succeeded: allSucceeded,
    requests_received: received,
    first_ms: round(runs[0], 2),
    median_ms: round(median(runs), 2),
    min_ms: round(Math.min(...runs), 2),
    max_ms: round(Math.max(...runs), 2),
  });
}

const results = { measured_at: new Date().toISOString(), node: process.version, dead_receiver: dead, fanout_20: fanout };

console.log('\nwebhooks');
console.log(
  `  ${EVENTS} events to a dead receiver, advance 2 days: ${dead.advance_2_days_ms} ms for ${dead.attempts} attempts ` +
    `(${dead.attempts_per_s}/s; target < ${TARGET_DEAD_MS / 1000} s: ${dead.met ? 'met' : 'MISSED'}); ` +
    `deliveries ${JSON.stringify(dead.statuses)}, address ${dead.address_status_after}; events made in ${dead.create_events_ms} ms`,
);
console.log(
  `  1 event to ${ADDRESSES} addresses of a live receiver: median ${fanout.median_ms} ms until all ${ADDRESSES} succeeded ` +
    `(first ${fanout.first_ms}, min ${fanout.min_ms}, max ${fanout.max_ms}; ${FANOUT_ROUNDS} rounds; all succeeded: ${fanout.all_succeeded})`,
);

const file = new URL('./results.json', import.meta.url);
const all = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
writeFileSync(file, JSON.stringify({ ...all, webhooks: results }, null, 2) + '\n');
if (!dead.met || !fanout.all_succeeded) process.exitCode = 1;
