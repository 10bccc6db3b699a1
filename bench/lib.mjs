// What the throughput benchmarks share (bench/run.mjs, bench/journal.mjs): pinning servers to
// CPU 0 and the load generator to CPU 1, spawning and stopping servers, free ports, and the
// small sums and tables of their reports.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

// os.cpus(), not availableParallelism(): the latter shrinks to 1 once this process is pinned.
export const canPin =
  os.cpus().length >= 2 &&
  spawnSync('taskset', ['-c', '0', 'true']).status === 0 &&
  spawnSync('taskset', ['-c', '1', 'true']).status === 0;

/**
 * Re-executes this script pinned to CPU 1 (where autocannon then runs) unless it already is,
 * and makes sure every server it spawns is killed on exit, also on an error or Ctrl-C.
 */
export function pinLoadGenerator() {
  if (canPin && process.env.BENCH_PINNED !== '1') {
    const child = spawnSync('taskset', ['-c', '1', process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_PINNED: '1' },
    });
    process.exit(child.status ?? 1);
  }
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
}

const children = new Set();

/** A positive number of seconds from the environment (0 too when `zeroOk`), else the fallback. */
export function positiveNumber(name, fallback, zeroOk = false) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !zeroOk)) throw new Error(`${name} must be a positive number of seconds`);
  return n;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `node <args>` pinned to CPU 0, stdout to /dev/null, with `env` added to this process's
 * environment; the child carries `exited` (a promise of its code and signal) and `stderrTail()`
 * for error messages.
 */
export function spawnServer(args, env = {}) {
  const [cmd, argv] = canPin ? ['taskset', ['-c', '0', process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(cmd, argv, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4_000)));
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.stderrTail = () => stderr.trim();
  children.add(child);
  child.exited.then(() => children.delete(child));
  return child;
}

/** Calls `probe()` every `everyMs` until it resolves true; bounded at 10 s, and ends early if the server exits. */
export async function waitHealthy(child, probe, what, everyMs = 2) {
  const deadline = performance.now() + 10_000;
  let exited = null;
  child.exited.then((e) => (exited = e));
  while (performance.now() < deadline) {
    if (exited) throw new Error(`server exited (${exited.code ?? exited.signal}) before it was healthy: ${child.stderrTail()}`);
    try {
      if (await probe()) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`no 200 from ${what} within 10 s: ${child.stderrTail()}`);
}

export async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await child.exited;
  clearTimeout(timer);
}

/** Whole-machine CPU idle share over one second, from /proc/stat; null where that is missing. */
export async function cpuIdlePercent() {
  const sample = () => {
    try {
      const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
      return { idle: f[3] + f[4], total: f.reduce((a, b) => a + b, 0) };
    } catch {
      return null;
    }
  };
  const a = sample();
  if (!a) return null;
  await new Promise((r) => setTimeout(r, 1_000));
  const b = sample();
  return round((100 * (b.idle - a.idle)) / (b.total - a.total));
}

export function round(n, digits = 1) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Rows as aligned columns: the first left, the rest right. */
export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('   ')).join('\n');
}

/** Stops every server still running. */
export async function stopAll() {
  for (const child of [...children]) await stopServer(child);
}
