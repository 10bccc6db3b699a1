// What the request journal costs in throughput: the same server with the journal on (the
// default, --journal-limit 1000) and off (--journal-limit 0), side by side in one run, for
// GET /v1/onboardings/{id} (as bench/run.mjs) and for a write, POST /v1/onboardings with a
// unique Idempotency-Key per request. Target, for GET: with the journal on, at least 90% of the
// requests per second without it; POST is measured and reported against the same figure. Run
// after a build:
//
//   npm run bench                        (BENCH_DURATION measured seconds per case, default 10)
//   BENCH_DURATION=5 node bench/journal.mjs   (BENCH_WARMUP s of warm-up per server, default 2)
//
// Both servers (on and off) are child processes pinned to CPU 0 with taskset; this process (and
// so autocannon) re-executes itself pinned to CPU 1. They are loaded in turn, one second at a
// time (on, off, off, on, ...), so drift in the machine's other load falls on both alike.
// Figures go to stdout and, under the key `journal`, to bench/results.json. A missed target is
// reported, not an error.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { canPin, cpuIdlePercent, freePort, median, pinLoadGenerator, positiveNumber, ROOT, round, spawnServer, stopAll, stopServer, table, waitHealthy } from './lib.mjs';

const CLI = path.join(ROOT, 'dist/cli/main.js');
const RESULTS = path.join(ROOT, 'bench/results.json');

const KEY = 'hrs_test_acme_owner';
const GET_PATH = '/v1/onboardings/onb_demo_jansen';
const CONNECTIONS = { get: 50, post: 10 };
const DURATION_S = positiveNumber('BENCH_DURATION', 10);
const WARMUP_S = positiveNumber('BENCH_WARMUP', 2, true);
/** Each case is measured in slices of one second, on and off in turn. */
const SLICE_S = 1;
const SLICES = Math.max(2, Math.round(DURATION_S / SLICE_S));
/** USER_HZ of /proc/<pid>/stat: 100 on Linux whatever the kernel's own tick. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
/** With the journal on, at least this share of the requests per second without it. */
const TARGET_ON_OFF_MIN = 0.9;
const BODY = JSON.stringify({
  reference: 'bench-journal',
  metadata: { batch: 'journal' },
  employee: { first_name: 'Bench', last_name: 'Journal', email: 'bench.journal@example.test' },
  employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
});
const CASES = { on: ['--journal-limit', '1000'], off: ['--journal-limit', '0'] };

pinLoadGenerator();

// Bounded: a hang ends the run with a message instead of blocking `npm run bench`.
const budgetS = 120 + 4 * (WARMUP_S + SLICES * (SLICE_S + 1));
setTimeout(() => {
  console.error(`bench/journal.mjs: gave up after ${budgetS} s`);
  process.exit(1);
}, budgetS * 1000).unref();

/** One request without keep-alive; resolves { status, json }. */
function call(port, method, urlPath, body) {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) };
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json = null;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode, json });
      });
      res.on('error', reject);
    });
    req.setTimeout(5_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

async function startServer(extra) {
  const port = await freePort();
  const child = spawnServer([CLI, 'serve', '--port', String(port), '--log-level', 'warn', ...extra]);
  await waitHealthy(child, async () => (await call(port, 'GET', '/_emulator/health')).status === 200, '/_emulator/health', 5);
  return { child, port };
}

let idempotencySeq = 0;
function load(port, kind, seconds) {
  const options = {
    url: `http://127.0.0.1:${port}${kind === 'get' ? GET_PATH : '/v1/onboardings'}`,
    connections: CONNECTIONS[kind],
    duration: seconds,
    headers: { authorization: `Bearer ${KEY}` },
  };
  if (kind === 'post') {
    options.method = 'POST';
    options.headers['content-type'] = 'application/json';
    options.body = BODY;
    // A new key per request: every write runs (no replays) and is recorded with its key.
    options.requests = [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `bench-${process.pid}-${++idempotencySeq}` } }) }];
  }
  return autocannon(options);
}

/** Starts both servers, checks them and warms them up; for writes, back to the fixtures after. */
async function prepare(kind) {
  const servers = {};
  for (const journal of ['on', 'off']) {
    servers[journal] = await startServer(CASES[journal]);
    const { port } = servers[journal];
    const probe = kind === 'get' ? await call(port, 'GET', GET_PATH) : await call(port, 'POST', '/v1/onboardings', BODY);
    if (probe.status !== (kind === 'get' ? 200 : 201)) throw new Error(`${kind} journal ${journal}: answered ${probe.status}`);
    if (WARMUP_S > 0) await load(port, kind, WARMUP_S);
  }
  return servers;
}

/** The journal must be doing (or not doing) what the case says. */
async function checkJournal(kind, journal, port) {
  const list = (await call(port, 'GET', '/_emulator/requests?limit=1')).json;
  const ok = journal === 'on' ? list?.total > 0 && list?.limit === 1000 : list?.total === 0 && list?.limit === 0;
  if (!ok) throw new Error(`${kind} journal ${journal}: the journal holds ${list?.total} requests (limit ${list?.limit})`);
}

/**
 * Both servers run through the whole measurement, loaded in turn for one second at a time
 * (on, off, off, on, ...), so the machine's other load falls on both alike. Writes start every
 * slice from the fixtures (POST /_emulator/reset), so the store does not grow through the run.
 */
async function measure(kind) {
  const servers = await prepare(kind);
  const slices = { on: [], off: [] };
  const pairs = [];
  try {
    for (let i = 0; i < SLICES; i++) {
      const pair = {};
      for (const journal of i % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
        const { port } = servers[journal];
        if (kind === 'post' && (await call(port, 'POST', '/_emulator/reset')).status !== 200) throw new Error('reset failed');
        const cpuBefore = cpuSeconds(servers[journal].child.pid);
        const r = await load(port, kind, SLICE_S);
        const cpu = cpuSeconds(servers[journal].child.pid) - cpuBefore;
        if (r.non2xx || r.errors || r.timeouts) console.log(`    WARNING ${kind} journal ${journal}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
        slices[journal].push({ requests: r.requests.total, seconds: r.duration, cpu_s: round(cpu, 3), p99: r.latency.p99, non_2xx: r.non2xx, errors: r.errors });
        pair[journal] = r.requests.total / r.duration;
      }
      pairs.push(pair.on / pair.off);
    }
    for (const journal of ['on', 'off']) await checkJournal(kind, journal, servers[journal].port);
  } finally {
    for (const { child } of Object.values(servers)) await stopServer(child);
  }
  const rate = (xs) => round(xs.reduce((a, x) => a + x.requests, 0) / xs.reduce((a, x) => a + x.seconds, 0));
  const on = rate(slices.on);
  const off = rate(slices.off);
  const medianPair = round(median(pairs), 3);
  // The server's own CPU time per request: what other work on the machine changes least.
  const cpuUs = (xs) => round((1e6 * xs.reduce((a, x) => a + x.cpu_s, 0)) / xs.reduce((a, x) => a + x.requests, 0));
  const cpu = Number.isFinite(cpuSeconds(process.pid)) ? { on: cpuUs(slices.on), off: cpuUs(slices.off) } : null;
  return {
    on_requests_per_s: on,
    off_requests_per_s: off,
    /** Server CPU time per request; off/on is the throughput ratio on a core the server has to itself. */
    cpu_us_per_request: cpu,
    ratio_on_off_cpu: cpu ? round(cpu.off / cpu.on, 3) : null,
    ratio_off_on: round(off / on, 3),
    ratio_on_off: round(on / off, 3),
    /** The median of the on/off ratios of the slices run back to back: the figure the target is checked on. */
    ratio_on_off_median_pair: medianPair,
    cost_percent: round(100 * (1 - medianPair)),
    met: medianPair >= TARGET_ON_OFF_MIN,
    slices,
  };
}

/** User plus system CPU seconds a process has used so far, from /proc; NaN where that is missing. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm run bench does)');
  console.log(`\nrequest journal on (--journal-limit 1000) vs off (--journal-limit 0), --log-level warn`);
  console.log(`  ${canPin ? 'servers on CPU 0, autocannon on CPU 1' : 'NOT pinned (needs taskset and 2 CPUs)'}; ${WARMUP_S} s warm-up, then ${SLICES} s measured per case in 1 s slices, on and off in turn`);
  console.log(`  GET ${GET_PATH} (${CONNECTIONS.get} connections); POST /v1/onboardings, a new Idempotency-Key per request (${CONNECTIONS.post} connections)`);
  const idleBefore = await cpuIdlePercent();
  console.log(`  CPU idle over the last second: ${idleBefore ?? 'unknown'}%${idleBefore !== null && idleBefore < 90 ? '  (WARNING: the machine is busy)' : ''}`);
  const summary = {};
  for (const kind of ['get', 'post']) {
    process.stdout.write(`  ${kind.toUpperCase()}: ${SLICES} slices of ${SLICE_S} s per case ... `);
    summary[kind] = await measure(kind);
    const s = summary[kind];
    console.log(`on ${Math.round(s.on_requests_per_s)} req/s, off ${Math.round(s.off_requests_per_s)} req/s${s.cpu_us_per_request ? `; server CPU per request on ${s.cpu_us_per_request.on} µs, off ${s.cpu_us_per_request.off} µs` : ''}`);
  }
  console.log('\n' + table([
    ['journal cost', 'on req/s', 'off req/s', 'off/on', 'on/off', 'on/off (median pair)', 'cost', `target on/off >= ${TARGET_ON_OFF_MIN}`, 'CPU µs/req on', 'off', 'on/off by CPU'],
    ...['get', 'post'].map((k) => {
      const s = summary[k];
      const c = s.cpu_us_per_request;
      return [k === 'get' ? `GET ${GET_PATH}` : 'POST /v1/onboardings', Math.round(s.on_requests_per_s), Math.round(s.off_requests_per_s), s.ratio_off_on.toFixed(3), s.ratio_on_off.toFixed(3), s.ratio_on_off_median_pair.toFixed(3), `${s.cost_percent}%`, s.met ? 'met' : 'MISSED', c ? c.on : '-', c ? c.off : '-', s.ratio_on_off_cpu?.toFixed(3) ?? '-'];
    }),
  ]));
  const journal = {
    measured_at: new Date().toISOString(),
    settings: { pinned: canPin, slices: SLICES, slice_s: SLICE_S, warmup_s: WARMUP_S, connections: CONNECTIONS, log_level: 'warn', cpu_idle_percent_before: idleBefore },
    target: { on_off_min: TARGET_ON_OFF_MIN },
    get: summary.get,
    post: summary.post,
  };
  const all = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  writeFileSync(RESULTS, JSON.stringify({ ...all, journal }, null, 2) + '\n');
  console.log(`\nwrote ${path.relative(ROOT, RESULTS)} (key "journal")`);
}

try {
  await main();
} catch (err) {
  console.error(`\nbench/journal.mjs failed: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
process.exit(process.exitCode ?? 0);
