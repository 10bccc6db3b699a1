// The cost of tracing: GET /v1/onboardings/{id} throughput, p99 and the server's CPU per
// request with tracing off, on (every request's span exported by the OpenTelemetry SDK over
// OTLP/protobuf, the default, and over OTLP/JSON, to a sink in this process on 127.0.0.1), and
// on with one request in ten sampled, in one run, alternating; and the start-up time to the
// first 200 with tracing off and on. Run after a build:
//
//   node bench/tracing.mjs                       (6 rounds of 3 s each after a 2 s warm-up)
//   BENCH_DURATION=3 BENCH_ROUNDS=2 node bench/tracing.mjs
//   BENCH_SINK_PARSE=1 node bench/tracing.mjs    (the sink parses every JSON export: see sink())
//
// Tracing is for following a test through the emulator, not for load: there is no target for
// tracing on. Tracing off must cost nothing (nothing of it is loaded), which the start-up time
// and the off column show. On a shared machine two runs of one build differ by a few percent,
// and the drift is slow: so each round measures every way back to back, the ratios are the
// median of the rounds' own ratios (a way / off of the same round), with their spread beside
// them. Servers are pinned to CPU 0 and this process (autocannon and the sink) to CPU 1 where
// taskset can. The server's CPU time per request (from /proc, where there is one) is disturbed
// much less than throughput by other work on a shared machine.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { canPin, freePort, median, pinLoadGenerator, positiveNumber, ROOT, round, spawnServer, stopAll, stopServer, table, waitHealthy } from './lib.mjs';

const CLI = path.join(ROOT, 'dist/cli/main.js');
const KEY = 'hrs_test_acme_owner';
const ONBOARDING_PATH = '/v1/onboardings/onb_demo_jansen';
const CONNECTIONS = 50;
const DURATION_S = positiveNumber('BENCH_DURATION', 3);
// Long enough for the optimising compiler to have finished with the tracer's code too.
const WARMUP_S = positiveNumber('BENCH_WARMUP', 2, true);
const ROUNDS = Math.min(20, Math.max(1, Math.floor(positiveNumber('BENCH_ROUNDS', 6))));
const STARTUP_RUNS = 5;

pinLoadGenerator();

/**
 * An OTLP/HTTP sink on 127.0.0.1: reads each export, counts its spans, answers 200. It shares
 * CPU 1 with autocannon, so it must cost little: parsing every body (about 400 kB per 512 spans)
 * took enough of that CPU to slow the load generator, and a server fed more unevenly spends
 * more CPU per request (with the sink merely slow to answer, not busy, the server's cost did
 * not rise). So the first export is parsed (the body is checked to be JSON) and every export's
 * spans are counted by their "spanId" fields. BENCH_SINK_PARSE=1 parses every body, as before.
 */
async function sink() {
  const seen = { exports: 0, spans: 0, parsed: 0, protobuf: 0, bytes: 0 };
  const parseAll = process.env.BENCH_SINK_PARSE === '1';
  const SPAN_ID = Buffer.from('"spanId":');
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      seen.exports++;
      const bytes = Buffer.concat(chunks);
      seen.bytes += bytes.length;
      if (String(req.headers['content-type']).startsWith('application/x-protobuf')) {
        // Not read: counting protobuf's spans means parsing it, on the load generator's CPU.
        seen.protobuf++;
      } else if (parseAll || seen.parsed === 0) {
        try {
          const body = JSON.parse(bytes.toString('utf8'));
          seen.parsed++;
          for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) seen.spans += ss.spans?.length ?? 0;
        } catch {
          /* counted as an export all the same */
        }
      } else {
        for (let at = bytes.indexOf(SPAN_ID); at !== -1; at = bytes.indexOf(SPAN_ID, at + SPAN_ID.length)) seen.spans++;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

function get(port, urlPath, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.setTimeout(2_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** The process's user + system CPU time in microseconds (Linux /proc); null elsewhere. */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return null;
  }
}

async function start(env) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawnServer([CLI, 'serve', '--port', String(port), '--log-level', 'warn'], env);
  await waitHealthy(child, async () => (await get(port, '/_emulator/health')) === 200, '/_emulator/health');
  return { child, port, startupMs: round(performance.now() - t0) };
}

const load = (port, seconds) =>
  autocannon({ url: `http://127.0.0.1:${port}${ONBOARDING_PATH}`, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${KEY}` } });

async function measure(label, env) {
  const { child, port } = await start(env);
  try {
    if ((await get(port, ONBOARDING_PATH, { authorization: `Bearer ${KEY}` })) !== 200) throw new Error(`${label}: the GET did not answer 200`);
    if (WARMUP_S > 0) await load(port, WARMUP_S);
    const cpu0 = cpuMicros(child.pid);
    const r = await load(port, DURATION_S);
    const cpu1 = cpuMicros(child.pid);
    const cpuPerRequest = cpu0 === null || cpu1 === null ? null : round((cpu1 - cpu0) / r.requests.total);
    if (r.non2xx || r.errors || r.timeouts) console.log(`  WARNING ${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
    console.log(`  ${label}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, ${cpuPerRequest ?? '?'} µs CPU per request`);
    return { rps: r.requests.average, p99: r.latency.p99, requests: r.requests.total, cpu: cpuPerRequest };
  } finally {
    await stopServer(child);
  }
}

/** The ways measured, each round in this order or its reverse. */
const WAYS = ['off', 'protobuf', 'json', 'sampled'];
const LABELS = {
  off: 'tracing off',
  protobuf: 'tracing on, OTLP/protobuf (the default)',
  json: 'tracing on, OTLP/JSON',
  sampled: 'tracing on, 1 in 10 sampled (protobuf)',
};

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first');
  console.log(`tracing overhead: node ${process.version}, ${os.cpus().length} CPUs, ${canPin ? 'pinned (server CPU 0, load CPU 1)' : 'NOT pinned'}`);
  console.log(`load: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${WARMUP_S} s warm-up + ${DURATION_S} s each way, GET ${ONBOARDING_PATH}\n`);
  const otlp = await sink();
  // The batch processor's defaults: a batch of 512 spans goes out as soon as it is full, the rest every 5 s.
  const off = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };
  const protobuf = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' };
  const json = { ...protobuf, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
  // The standard sampler variables: one request in ten starts a recorded trace (a caller's sampled traceparent is followed).
  const sampled = { ...protobuf, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };
  const envs = { off, protobuf, json, sampled };
  const runs = Object.fromEntries(WAYS.map((w) => [w, []]));
  try {
    for (let i = 0; i < ROUNDS; i++) {
      // Alternating, starting with a different one each round, so drift in the machine's load falls on all.
      const order = i % 2 === 0 ? WAYS : [...WAYS].reverse();
      for (const way of order) runs[way].push(await measure(`round ${i + 1}, ${LABELS[way]}`, envs[way]));
    }
    const startup = { off: [], on: [] };
    for (let i = 0; i < STARTUP_RUNS; i++) {
      for (const which of ['off', 'on']) {
        const s = await start(which === 'on' ? protobuf : off);
        startup[which].push(s.startupMs);
        await stopServer(s.child);
      }
    }
    // Each round's own ratio: the rounds ran back to back, so what drifted between rounds cancels.
    const paired = (way, pick) => runs[way].map((r, i) => pick(r) / pick(runs.off[i]));
    const ratio = (way, pick) => {
      const list = paired(way, pick);
      if (list.some(Number.isNaN)) return '?';
      return `${round(median(list), 3).toFixed(3)} (${round(Math.min(...list), 3).toFixed(3)} to ${round(Math.max(...list), 3).toFixed(3)})`;
    };
    const med = (way, pick) => median(runs[way].map(pick));
    console.log('\n' + table([
      ['GET /v1/onboardings/{id}, median of rounds', 'req/s', 'req/s / off (rounds)', 'p99 ms', 'CPU µs/req', 'CPU / off (rounds)'],
      ...WAYS.map((way) => [
        LABELS[way],
        Math.round(med(way, (r) => r.rps)),
        way === 'off' ? '1' : ratio(way, (r) => r.rps),
        med(way, (r) => r.p99),
        round(med(way, (r) => r.cpu ?? Number.NaN)),
        way === 'off' ? '1' : ratio(way, (r) => r.cpu ?? Number.NaN),
      ]),
    ]));
    console.log('\n' + table([
      ['start-up to the first 200', 'median ms', 'runs ms'],
      ['tracing off', median(startup.off), startup.off.join(', ')],
      ['tracing on (the SDK loaded)', median(startup.on), startup.on.join(', ')],
    ]));
    const { seen } = otlp;
    console.log(`\nthe sink received ${seen.exports} exports, ${Math.round(seen.bytes / 1e6)} MB (${seen.protobuf} in protobuf, not read; in JSON ${seen.spans} spans counted, ${seen.parsed} parsed)`);
  } finally {
    await stopAll();
    await otlp.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
