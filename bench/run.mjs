// Benchmarks of the quality targets in docs/benchmarks.md: GET /v1/onboardings/{id} throughput
// and p99 against a bare Express 5 baseline in the same run, and start-up time to the first 200. Run after a build:
//
//   npm run bench                      (10 s per measurement after a 2 s warm-up)
//   BENCH_DURATION=3 npm run bench     (shorter; BENCH_WARMUP sets the warm-up seconds)
//
// Each server is a child process pinned to CPU 0 with taskset; this process (and so autocannon)
// re-executes itself pinned to CPU 1. Figures go to stdout and to bench/results.json.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { canPin, cpuIdlePercent, freePort, median, pinLoadGenerator, positiveNumber, ROOT, round, spawnServer as spawnPinned, stopAll, stopServer, table, waitHealthy as waitUntil } from './lib.mjs';

const CLI = path.join(ROOT, 'dist/cli/main.js');
const BASELINE = path.join(ROOT, 'bench/baseline.mjs');
const RESULTS = path.join(ROOT, 'bench/results.json');

const KEY = 'hrs_test_acme_owner';
const ONBOARDING_PATH = '/v1/onboardings/onb_demo_jansen';
const HEALTH_PATH = '/_emulator/health';
const CONNECTIONS = 50;
const DURATION_S = positiveNumber('BENCH_DURATION', 10);
const WARMUP_S = positiveNumber('BENCH_WARMUP', 2, true);
const STARTUP_RUNS = 5;
const CPUS = os.cpus().length;
const TARGETS = { rpsRatioMin: 0.7, p99RatioMax: 1.5, startupMsMax: 400, startupRatioMax: 1.2 };

pinLoadGenerator();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'onboarding-bench-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** One GET without keep-alive; resolves { status, body } or rejects on a socket error. */
function get(port, urlPath, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(2_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** Spawns a server pinned to CPU 0 with stdout to /dev/null; keeps the tail of stderr for errors. */
function spawnServer(kind, port, extra = []) {
  return spawnPinned(kind === 'baseline' ? [BASELINE, '--port', String(port), ...extra] : [CLI, 'serve', '--port', String(port), ...extra]);
}

/** Polls health every 2 ms until the first 200; bounded at 10 s. */
const waitHealthy = (child, port) => waitUntil(child, async () => (await get(port, HEALTH_PATH)).status === 200, HEALTH_PATH);

async function startServer(kind, extra) {
  const port = await freePort();
  const child = spawnServer(kind, port, extra);
  await waitHealthy(child, port);
  return { child, port };
}

// ---- measurements ----

/** Fetches the exact bytes the emulator serves for the fixture onboarding. */
async function captureBody() {
  const { child, port } = await startServer('emulator', ['--log-level', 'warn']);
  try {
    const res = await get(port, ONBOARDING_PATH, { authorization: `Bearer ${KEY}` });
    if (res.status !== 200) throw new Error(`emulator answered ${res.status} for ${ONBOARDING_PATH}`);
    return res.body;
  } finally {
    await stopServer(child);
  }
}

async function load(port, seconds) {
  return autocannon({
    url: `http://127.0.0.1:${port}${ONBOARDING_PATH}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${KEY}` },
  });
}

async function throughput(label, kind, extra) {
  const { child, port } = await startServer(kind, extra);
  try {
    const check = await get(port, ONBOARDING_PATH, { authorization: `Bearer ${KEY}` });
    if (check.status !== 200) throw new Error(`${label}: GET answered ${check.status}`);
    const denied = await get(port, ONBOARDING_PATH, { authorization: 'Bearer hrs_test_wrong' });
    if (denied.status !== 401) throw new Error(`${label}: a wrong key answered ${denied.status}, expected 401`);
    process.stdout.write(`  ${label}: warm-up ${WARMUP_S} s, measure ${DURATION_S} s ... `);
    if (WARMUP_S > 0) await load(port, WARMUP_S);
    const r = await load(port, DURATION_S);
    const figures = {
      requests_per_s: round(r.requests.average),
      requests_total: r.requests.total,
      latency_ms: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: round(r.latency.average) },
      bytes_per_response: check.body.length,
      non_2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
    };
    console.log(`${Math.round(figures.requests_per_s)} req/s, p99 ${figures.latency_ms.p99} ms`);
    if (r.non2xx || r.errors || r.timeouts) console.log(`  WARNING ${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
    return figures;
  } finally {
    await stopServer(child);
  }
}

/** Milliseconds from spawn to the first 200 on the health endpoint; one retry if killed from outside. */
async function startupOnce(kind, extra, retry = true) {
  try {
    return await startupAttempt(kind, extra);
  } catch (err) {
    if (!retry || !/exited \(SIG/.test(String(err?.message))) throw err;
    console.log(`  note: a ${kind} start-up run was killed by a signal from outside; running it again`);
    return startupOnce(kind, extra, false);
  }
}

async function startupAttempt(kind, extra) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawnServer(kind, port, extra);
  try {
    await waitHealthy(child, port);
    return round(performance.now() - t0);
  } finally {
    await stopServer(child);
  }
}

const verdict = (ok) => (ok ? 'met' : 'MISSED');

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm run bench does)');
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  console.log(`onboarding-emulator benchmarks: node ${process.version}, ${CPUS} CPUs (${cpu})`);
  console.log(
    canPin
      ? 'pinning: servers on CPU 0 (taskset -c 0), autocannon on CPU 1 (taskset -c 1)'
      : 'pinning: NOT available (needs taskset and 2 CPUs); figures are less comparable',
  );
  console.log(`load: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s measured, GET ${ONBOARDING_PATH}`);
  // Other work on the machine skews everything; say so rather than hide it.
  const idleBefore = await cpuIdlePercent();
  console.log(`CPU idle over the last second: ${idleBefore ?? 'unknown'}%${idleBefore !== null && idleBefore < 90 ? '  (WARNING: the machine is busy)' : ''}\n`);

  const body = await captureBody();
  const bodyFile = path.join(tmp, 'onboarding.json');
  writeFileSync(bodyFile, body);

  console.log('throughput');
  const baseline = await throughput('baseline (bare Express 5)', 'baseline', ['--body', bodyFile]);
  const info = await throughput('emulator --log-level info', 'emulator', ['--log-level', 'info']);
  const warn = await throughput('emulator --log-level warn', 'emulator', ['--log-level', 'warn']);

  console.log(`\nstart-up (${STARTUP_RUNS} runs each, alternating)`);
  const startup = { emulator: [], baseline: [] };
  for (let i = 0; i < STARTUP_RUNS; i++) {
    startup.emulator.push(await startupOnce('emulator', ['--log-level', 'warn']));
    startup.baseline.push(await startupOnce('baseline', ['--body', bodyFile]));
  }
  const su = (runs) => ({ runs_ms: runs, best_ms: Math.min(...runs), median_ms: median(runs) });
  const startEmu = su(startup.emulator);
  const startBase = su(startup.baseline);

  const ratio = (a, b) => round(a / b, 2);
  const ratios = {
    info: { rps: ratio(info.requests_per_s, baseline.requests_per_s), p99: ratio(info.latency_ms.p99, baseline.latency_ms.p99) },
    warn: { rps: ratio(warn.requests_per_s, baseline.requests_per_s), p99: ratio(warn.latency_ms.p99, baseline.latency_ms.p99) },
    startup_median: ratio(startEmu.median_ms, startBase.median_ms),
    startup_best: ratio(startEmu.best_ms, startBase.best_ms),
  };
  const met = {
    rps_info: ratios.info.rps >= TARGETS.rpsRatioMin,
    rps_warn: ratios.warn.rps >= TARGETS.rpsRatioMin,
    p99_info: ratios.info.p99 <= TARGETS.p99RatioMax,
    p99_warn: ratios.warn.p99 <= TARGETS.p99RatioMax,
    startup_absolute: startEmu.median_ms < TARGETS.startupMsMax,
    startup_ratio: ratios.startup_median <= TARGETS.startupRatioMax,
  };

  console.log('\n' + table([
    ['GET /v1/onboardings/{id}', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'req/s ratio', 'p99 ratio'],
    ['baseline (bare Express 5)', Math.round(baseline.requests_per_s), baseline.latency_ms.p50, baseline.latency_ms.p99, baseline.latency_ms.max, '1.00', '1.00'],
    ['emulator, --log-level info', Math.round(info.requests_per_s), info.latency_ms.p50, info.latency_ms.p99, info.latency_ms.max, ratios.info.rps.toFixed(2), ratios.info.p99.toFixed(2)],
    ['emulator, --log-level warn', Math.round(warn.requests_per_s), warn.latency_ms.p50, warn.latency_ms.p99, warn.latency_ms.max, ratios.warn.rps.toFixed(2), ratios.warn.p99.toFixed(2)],
  ]));
  console.log('\n' + table([
    ['start-up to first 200', 'best ms', 'median ms', 'runs ms'],
    ['baseline (bare Express 5)', startBase.best_ms, startBase.median_ms, startBase.runs_ms.join(', ')],
    ['emulator, --log-level warn', startEmu.best_ms, startEmu.median_ms, startEmu.runs_ms.join(', ')],
    ['ratio emulator/baseline', ratios.startup_best.toFixed(2), ratios.startup_median.toFixed(2), ''],
  ]));
  console.log('\n' + table([
    ['target', 'measured', 'result'],
    [`req/s ratio >= ${TARGETS.rpsRatioMin} (info)`, ratios.info.rps.toFixed(2), verdict(met.rps_info)],
    [`req/s ratio >= ${TARGETS.rpsRatioMin} (warn)`, ratios.warn.rps.toFixed(2), verdict(met.rps_warn)],
    [`p99 ratio <= ${TARGETS.p99RatioMax} (info)`, ratios.info.p99.toFixed(2), verdict(met.p99_info)],
    [`p99 ratio <= ${TARGETS.p99RatioMax} (warn)`, ratios.warn.p99.toFixed(2), verdict(met.p99_warn)],
    [`start-up median < ${TARGETS.startupMsMax} ms`, `${startEmu.median_ms} ms`, verdict(met.startup_absolute)],
    [`start-up ratio <= ${TARGETS.startupRatioMax} (median)`, ratios.startup_median.toFixed(2), verdict(met.startup_ratio)],
  ]));

  const results = {
    measured_at: new Date().toISOString(),
    machine: { cpus: CPUS, cpu_model: cpu, platform: `${os.platform()} ${os.release()}`, node: process.version },
    cpu_idle_percent_before: idleBefore,
    settings: { pinned: canPin, connections: CONNECTIONS, warmup_s: WARMUP_S, duration_s: DURATION_S, startup_runs: STARTUP_RUNS, path: ONBOARDING_PATH },
    throughput: { baseline, emulator_info: info, emulator_warn: warn },
    startup: { emulator: startEmu, baseline: startBase },
    ratios,
    targets: TARGETS,
    met,
  };
  writeFileSync(RESULTS, JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwrote ${path.relative(ROOT, RESULTS)}`);
}

try {
  await main();
} catch (err) {
  console.error(`\nbenchmark failed: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
