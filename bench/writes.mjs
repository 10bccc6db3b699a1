// Write throughput of `serve`, with and without --state-file: POST /v1/onboardings from 10
// connections for a few seconds on 127.0.0.1. With the state file every answer waits for a
// durable write holding its change (group commit: writes are shared by the answers waiting
// together), so the difference is the price of "an answer means it is on the disk". The
// state file is measured twice in the same run: on the fixtures (an empty store), and on a
// store first filled with BENCH_WRITE_FILL onboardings (default 6,000: made in memory, taken
// as a snapshot and given to `serve --state-file` as its file), to show whether a durable
// write costs more when the store holds more; `fill_ratio` is the second over the first. The
// same pair again with an Idempotency-Key on every request, as integrations send them (the
// fill too, so the store holds 6,000 remembered responses): `fill_ratio_keyed`.
// Run with `npm run bench` (last) or `npm run build && node bench/writes.mjs`;
// BENCH_WRITE_DURATION sets the seconds per case (default 3). Figures go to stdout and, under
// the key `writes`, to bench/results.json.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'dist/cli/main.js');
const DURATION_S = Number(process.env.BENCH_WRITE_DURATION ?? 3);
const FILL = Number(process.env.BENCH_WRITE_FILL ?? 6000);
// Another build to compare with (its dist/cli/main.js), e.g. one made from an older commit.
const CLI_UNDER_TEST = process.env.BENCH_WRITES_CLI ? path.resolve(process.env.BENCH_WRITES_CLI) : CLI;
const CONNECTIONS = 10;
const BODY = JSON.stringify({
  reference: 'bench-write',
  metadata: { batch: 'writes' },
  employee: { first_name: 'Bench', last_name: 'Writer', email: 'bench.writer@example.test' },
  employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
});

const tmp = mkdtempSync(path.join(os.tmpdir(), 'onboarding-bench-writes-'));
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});
// Bounded: a hang ends the run with a message instead of blocking `npm run bench`.
setTimeout(() => {
  console.error('bench/writes.mjs: gave up after 300 s');
  process.exit(1);
}, 300_000).unref();

/** Spawns `serve` on a free port; resolves with its URL from the ready line. */
function start(extra) {
  const child = spawn(process.execPath, [CLI_UNDER_TEST, 'serve', '--port', '0', '--log-level', 'warn', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (c) => {
      seen += c;
      const line = seen.split('\n').find((l) => l.includes('"url"'));
      if (line) resolve({ child, url: JSON.parse(line).url });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before it was ready`)));
  });
}

async function stop(child) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** A new Idempotency-Key on every request, when `keyed`. */
let keySeq = 0;
const keyedRequests = (keyed) => (keyed ? { requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `bench-${process.pid}-${++keySeq}` } }) }] } : {});

async function measure(label, extra, file, keyed = false) {
  const { child, url } = await start(extra);
  const onboardingsAtStart = file ? (await snapshotOf(url)).store.onboardings.length : undefined;
  try {
    process.stdout.write(`  ${label}: ${DURATION_S} s ... `);
    const r = await autocannon({
      url: `${url}/v1/onboardings`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: { authorization: 'Bearer hrs_test_acme_owner', 'content-type': 'application/json' },
      body: BODY,
      ...keyedRequests(keyed),
    });
    const figures = {
      requests_per_s: Math.round(r.requests.average),
      requests_total: r.requests.total,
      latency_ms: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max },
      non_2xx: r.non2xx,
      errors: r.errors,
      ...(file ? { onboardings_at_start: onboardingsAtStart } : {}),
    };
    await stop(child);
    if (file) figures.state_file_bytes_at_end = statSync(file).size;
    if (file && existsSync(`${file}.log`)) figures.state_file_log_bytes_at_end = statSync(`${file}.log`).size;
    console.log(`${figures.requests_per_s} writes/s, p50 ${figures.latency_ms.p50} ms, p99 ${figures.latency_ms.p99} ms${file ? `, file ${Math.round(figures.state_file_bytes_at_end / 1024)} KiB at the end` : ''}`);
    if (r.non2xx || r.errors) console.log(`  WARNING ${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return figures;
  } finally {
    if (children.has(child)) child.kill('SIGKILL');
  }
}

async function snapshotOf(url) {
  const res = await fetch(`${url}/_emulator/snapshot`);
  if (res.status !== 200) throw new Error(`GET /_emulator/snapshot answered ${res.status}`);
  return res.json();
}

/** A state file holding `count` onboardings besides the fixtures': made in memory, as fast as that goes. */
async function filledStateFile(file, count, keyed = false) {
  const { child, url } = await start([]);
  try {
    process.stdout.write(`  filling a store with ${count} onboardings in memory ... `);
    const r = await autocannon({
      url: `${url}/v1/onboardings`,
      method: 'POST',
      connections: CONNECTIONS,
      amount: count,
      timeout: 30,
      headers: { authorization: 'Bearer hrs_test_acme_owner', 'content-type': 'application/json' },
      body: BODY,
      ...keyedRequests(keyed),
    });
    if (r.non2xx || r.errors) throw new Error(`filling: ${r.non2xx} non-2xx, ${r.errors} errors`);
    writeFileSync(file, JSON.stringify(await snapshotOf(url)), { mode: 0o600 });
    console.log(`${Math.round(statSync(file).size / 1024 / 1024)} MB`);
  } finally {
    await stop(child);
  }
}

if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm run bench does)');
console.log(`\nwrite throughput: POST /v1/onboardings, ${CONNECTIONS} connections, ${DURATION_S} s per case`);
const memory = await measure('in memory', []);
const file = path.join(tmp, 'state.json');
const durable = await measure('--state-file on an empty store (fsync per group commit)', ['--state-file', file], file);
const ratio = Math.round((100 * durable.requests_per_s) / memory.requests_per_s) / 100;
console.log(`  ratio --state-file / in memory: ${ratio}`);
const filledFile = path.join(tmp, 'filled.json');
await filledStateFile(filledFile, FILL);
const filled = await measure(`--state-file on a store of ${FILL} onboardings`, ['--state-file', filledFile], filledFile);
const fillRatio = Math.round((100 * filled.requests_per_s) / durable.requests_per_s) / 100;
console.log(`  ratio --state-file at ${FILL} onboardings / on an empty store: ${fillRatio}`);
const keyedEmpty = await measure('--state-file on an empty store, keyed', ['--state-file', path.join(tmp, 'keyed.json')], path.join(tmp, 'keyed.json'), true);
const keyedFilledFile = path.join(tmp, 'keyed-filled.json');
await filledStateFile(keyedFilledFile, FILL, true);
const keyedFilled = await measure(`--state-file on a store of ${FILL} keyed onboardings, keyed`, ['--state-file', keyedFilledFile], keyedFilledFile, true);
const fillRatioKeyed = Math.round((100 * keyedFilled.requests_per_s) / keyedEmpty.requests_per_s) / 100;
console.log(`  ratio, keyed: ${fillRatioKeyed}`);

const resultsFile = path.join(ROOT, 'bench/results.json');
const all = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : {};
const writes = {
  measured_at: new Date().toISOString(),
  connections: CONNECTIONS,
  duration_s: DURATION_S,
  in_memory: memory,
  state_file: durable,
  ratio,
  fill_onboardings: FILL,
  state_file_filled: filled,
  fill_ratio: fillRatio,
  state_file_keyed: keyedEmpty,
  state_file_filled_keyed: keyedFilled,
  fill_ratio_keyed: fillRatioKeyed,
};
if (process.env.BENCH_WRITES_CLI) console.log('  (another build: bench/results.json left as it was)');
else writeFileSync(resultsFile, JSON.stringify({ ...all, writes }, null, 2) + '\n');
process.exit(0);
