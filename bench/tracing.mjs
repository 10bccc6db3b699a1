// The cost of tracing: GET /v1/onboardings/{id} throughput and p99 with tracing on (every
// request's span exported over OTLP/HTTP to a sink in this process), with one request in ten
// sampled, and with tracing off, in one run, alternating; and the start-up time to the first
// 200 with tracing off and on. Run after a build:
//
//   node bench/tracing.mjs                       (10 rounds of 3 s each after a 2 s warm-up)
//   BENCH_DURATION=3 BENCH_ROUNDS=2 node bench/tracing.mjs
//   BENCH_SINK_PARSE=1 node bench/tracing.mjs    (the sink parses every export: see sink())
//   BENCH_PROTOCOL=http/protobuf node bench/tracing.mjs
//
// The target (docs/tracing.md): with tracing on, throughput within 5% of tracing off. On a
// shared machine two runs of one build differ by a few percent, and the drift is slow: so each
// round measures every way back to back, the verdict is the median of the rounds' own ratios
// (on / off of the same round), and the spread of those ratios is printed beside it. Servers
// are pinned to CPU 0 and this process (autocannon and the sink) to CPU 1 where taskset can.
// Besides requests per second, the server's own CPU time per request (from /proc, where there
// is one), which other work on a shared machine disturbs much less than throughput.
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
const ROUNDS = Math.min(20, Math.max(1, Math.floor(positiveNumber('BENCH_ROUNDS', 10))));
const STARTUP_RUNS = 5;
const TARGET_RPS_RATIO = 0.95;
// The OTLP/HTTP encoding tracing sends (OTEL_EXPORTER_OTLP_PROTOCOL): '' is the emulator's default.
const PROTOCOL = process.env.BENCH_PROTOCOL ?? '';

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

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first');
  console.log(`tracing overhead: node ${process.version}, ${os.cpus().length} CPUs, ${canPin ? 'pinned (server CPU 0, load CPU 1)' : 'NOT pinned'}`);
  console.log(`load: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${WARMUP_S} s warm-up + ${DURATION_S} s each way, GET ${ONBOARDING_PATH}\n`);
  const otlp = await sink();
  // The batch processor's defaults: a batch of 512 spans goes out as soon as it is full, the rest every 5 s.
  const on = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: PROTOCOL };
  // The standard sampler variables: one request in ten starts a recorded trace (a caller's sampled traceparent is followed).
  const sampled = { ...on, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };
  const off = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };
  const envs = { off, on, sampled };
  const runs = { off: [], on: [], sampled: [] };
  let tracedRequests = 0;
  try {
    for (let i = 0; i < ROUNDS; i++) {
      // Alternating, starting with a different one each round, so drift in the machine's load falls on both.
      const order = i % 2 === 0 ? ['off', 'on', 'sampled'] : ['sampled', 'on', 'off'];
      for (const which of order) {
        const r = await measure(`round ${i + 1}, tracing ${which}`, envs[which]);
        runs[which].push(r);
        if (which === 'on') tracedRequests += r.requests + 1;
      }
    }
    const startup = { off: [], on: [] };
    for (let i = 0; i < STARTUP_RUNS; i++) {
      for (const which of ['off', 'on']) {
        const s = await start(which === 'on' ? on : off);
        startup[which].push(s.startupMs);
        await stopServer(s.child);
      }
    }
    const of = (pick) => Object.fromEntries(Object.entries(runs).map(([k, list]) => [k, median(list.map(pick))]));
    const rps = of((r) => r.rps);
    const p99 = of((r) => r.p99);
    const cpu = of((r) => r.cpu ?? Number.NaN);
    for (const way of Object.keys(cpu)) cpu[way] = round(cpu[way]);
    // Each round's own ratio: the rounds ran back to back, so what drifted between rounds cancels.
    const paired = (way) => runs[way].map((r, i) => r.rps / runs.off[i].rps);
    const ratio = round(median(paired('on')), 3);
    const spread = (way) => `${round(Math.min(...paired(way)), 3).toFixed(3)} to ${round(Math.max(...paired(way)), 3).toFixed(3)}`;
    console.log('\n' + table([
      ['GET /v1/onboardings/{id} (median of rounds)', 'req/s', 'p99 ms', 'CPU µs/req', 'start-up median ms', 'start-up runs ms'],
      ['tracing off', Math.round(rps.off), p99.off, cpu.off, median(startup.off), startup.off.join(', ')],
      ['tracing on (OTLP/HTTP to a local sink)', Math.round(rps.on), p99.on, cpu.on, median(startup.on), startup.on.join(', ')],
      ['tracing on, 1 in 10 sampled', Math.round(rps.sampled), p99.sampled, cpu.sampled, '', ''],
    ]));
    const { seen } = otlp;
    console.log(`\nprotocol ${PROTOCOL || 'default'}: the sink received ${seen.exports} exports, ${Math.round(seen.bytes / 1e6)} MB (${seen.protobuf} in protobuf, not read; in JSON ${seen.spans} spans, ${seen.parsed} parsed), for ${tracedRequests} requests measured with every one traced (and the warm-ups and the sampled runs besides)`);
    console.log(`throughput with tracing on / off, median of the ${ROUNDS} rounds' ratios: ${ratio.toFixed(3)} (rounds ${spread('on')}; ratio of the medians ${round(rps.on / rps.off, 3).toFixed(3)}) (target >= ${TARGET_RPS_RATIO}: ${ratio >= TARGET_RPS_RATIO ? 'met' : 'MISSED'})`);
    console.log(`throughput with 1 in 10 sampled / off: ${round(median(paired('sampled')), 3).toFixed(3)} (rounds ${spread('sampled')})`);
    const cpuPaired = (way) => round(median(runs[way].map((r, i) => r.cpu / runs.off[i].cpu)), 3).toFixed(3);
    if (!Number.isNaN(cpu.on)) console.log(`server CPU per request, on / off (median of the rounds' ratios): ${cpuPaired('on')}; 1 in 10 sampled / off: ${cpuPaired('sampled')}`);
  } finally {
    await stopAll();
    await otlp.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
