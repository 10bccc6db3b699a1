// How soon GET /_emulator/wait answers once its condition holds, on a built server (a child
// process pinned to CPU 0; this process on CPU 1):
//   - event, frozen clock: a wait for the next onboarding.created, then POST /v1/onboardings;
//     the figure is the wait's answer minus the create's answer (both written by the server in
//     the same turn, so it can be slightly negative).
//   - delivery, realtime clock: a wait for a succeeded delivery, then a create whose webhook goes
//     to a receiver here that answers after 20 ms; the figure is the wait's answer minus the
//     moment the receiver's answer was written.
// Target: p95 at most 50 ms. BENCH_WAIT_ROUNDS rounds per case (default 100). Figures go to
// stdout and, under the key `wait`, to bench/results.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort, pinLoadGenerator, positiveNumber, ROOT, round, spawnServer, stopAll, stopServer, table, waitHealthy } from './lib.mjs';

const CLI = path.join(ROOT, 'dist/cli/main.js');
const RESULTS = path.join(ROOT, 'bench/results.json');
const KEY = 'hrs_test_acme_owner';
const ROUNDS = Math.round(positiveNumber('BENCH_WAIT_ROUNDS', 100));
const TARGET_P95_MS = 50;
/** Time for the wait to reach the server before the change is made. */
const SETTLE_MS = 15;
const BODY = JSON.stringify({
  reference: 'bench-wait',
  employee: { first_name: 'Bench', last_name: 'Wait', email: 'bench.wait@example.test' },
  employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
});

pinLoadGenerator();

const budgetS = 60 + ROUNDS;
setTimeout(() => {
  console.error(`bench/wait.mjs: gave up after ${budgetS} s`);
  process.exit(1);
}, budgetS * 1000).unref();

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One request; resolves { status, json, at } with `at` the moment the answer was complete. */
function call(port, method, urlPath, body) {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) };
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), at: performance.now() }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

async function startServer(clock) {
  const port = await freePort();
  const child = spawnServer([CLI, 'serve', '--port', String(port), '--log-level', 'warn', '--clock', clock, '--no-ui']);
  await waitHealthy(child, async () => (await call(port, 'GET', '/_emulator/health')).status === 200, '/_emulator/health', 5);
  return { child, port };
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: round(at(0.5), 2), p95: round(at(0.95), 2), max: round(sorted.at(-1), 2), rounds: sorted.length };
}

async function eventCase() {
  const { child, port } = await startServer('frozen');
  const gaps = [];
  try {
    let created = (await call(port, 'GET', '/_emulator/events?limit=1')).json.total;
    for (let i = 0; i < ROUNDS; i++) {
      created += 1;
      const waiting = call(port, 'GET', `/_emulator/wait?for=event&type=onboarding.*&count=${created}&timeout_ms=5000`);
      await pause(SETTLE_MS);
      const made = await call(port, 'POST', '/v1/onboardings', BODY);
      const met = await waiting;
      if (made.status !== 201 || met.status !== 200) throw new Error(`round ${i}: create ${made.status}, wait ${met.status} ${JSON.stringify(met.json)}`);
      created = met.json.count;
      gaps.push(met.at - made.at);
    }
  } finally {
    await stopServer(child);
  }
  return percentiles(gaps);
}

async function deliveryCase() {
  const answered = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.end('ok', () => answered.push(performance.now())), 20));
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
  const { child, port } = await startServer('realtime');
  const gaps = [];
  try {
    const hook = await call(port, 'POST', '/v1/webhooks', JSON.stringify({ url: hookUrl, events: ['onboarding.created'] }));
    if (hook.status !== 201) throw new Error(`webhook address: ${hook.status}`);
    for (let i = 0; i < ROUNDS; i++) {
      const waiting = call(port, 'GET', `/_emulator/wait?for=delivery&address=${encodeURIComponent(hookUrl)}&status=succeeded&count=${i + 1}&timeout_ms=5000`);
      await pause(SETTLE_MS);
      const made = await call(port, 'POST', '/v1/onboardings', BODY);
      const met = await waiting;
      if (made.status !== 201 || met.status !== 200) throw new Error(`round ${i}: create ${made.status}, wait ${met.status} ${JSON.stringify(met.json)}`);
      gaps.push(met.at - answered[i]);
    }
  } finally {
    await stopServer(child);
    receiver.closeAllConnections();
    receiver.close();
  }
  return percentiles(gaps);
}

try {
  const wait = { event_frozen: await eventCase(), delivery_realtime: await deliveryCase(), target_p95_ms: TARGET_P95_MS };
  console.log(`GET /_emulator/wait: answer after the change that met it, ms (${ROUNDS} rounds each)\n`);
  console.log(
    table([
      ['case', 'p50', 'p95', 'max', 'target p95'],
      ['event, frozen clock (after the create\'s answer)', wait.event_frozen.p50, wait.event_frozen.p95, wait.event_frozen.max, `<= ${TARGET_P95_MS}`],
      ['delivery, realtime clock (after the receiver\'s answer)', wait.delivery_realtime.p50, wait.delivery_realtime.p95, wait.delivery_realtime.max, `<= ${TARGET_P95_MS}`],
    ]),
  );
  for (const [name, r] of Object.entries({ event: wait.event_frozen, delivery: wait.delivery_realtime })) {
    if (r.p95 > TARGET_P95_MS) console.log(`target missed: ${name} p95 ${r.p95} ms > ${TARGET_P95_MS} ms`);
  }
  const all = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  writeFileSync(RESULTS, JSON.stringify({ ...all, wait }, null, 2) + '\n');
  console.log(`\nwrote ${path.relative(ROOT, RESULTS)} (key "wait")`);
} finally {
  agent.destroy();
  await stopAll();
}
