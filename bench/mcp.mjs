// MCP tool latency: a cheap tool (clock, action clock.now) called CALLS times in a row through
// the SDK's own client, over streamable HTTP (POST /_emulator/mcp of a `serve` child) and over
// stdio (an `mcp` child with its emulator in process), after WARMUP calls; p50, p95 and p99 of
// each. Then the start-up of `serve` to its first 200, median of STARTUP_RUNS, for this build
// and, when BASE_CLI names another build's dist/cli/main.js, for that one too (before/after).
// Everything on 127.0.0.1. Run after a build:
//
//   node bench/mcp.mjs
//   BASE_CLI=../another-checkout/dist/cli/main.js node bench/mcp.mjs
import path from 'node:path';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort, median, ROOT, round, spawnServer, stopAll, stopServer, table, waitHealthy } from './lib.mjs';

const CLI = path.join(ROOT, 'dist/cli/main.js');
const CALLS = 500;
const WARMUP = 50;
const STARTUP_RUNS = 11;
const TARGET_P95_MS = 50;

const healthy = (port) => () =>
  new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port, path: '/_emulator/health', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    }).on('error', () => resolve(false));
  });

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** CALLS timed calls of clock.now after WARMUP untimed ones; each must succeed. */
async function timeCalls(client) {
  const once = async () => {
    const r = await client.callTool({ name: 'clock', arguments: { action: 'clock.now' } });
    if (r.isError) throw new Error(`clock.now refused: ${r.content[0]?.text}`);
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const ms = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await once();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: round(percentile(ms, 50), 2), p95: round(percentile(ms, 95), 2), p99: round(percentile(ms, 99), 2), max: round(ms.at(-1), 2) };
}

async function overHttp() {
  const port = await freePort();
  const child = spawnServer([CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', '--log-level', 'warn']);
  try {
    await waitHealthy(child, healthy(port), 'serve');
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/_emulator/mcp`)));
    try {
      return await timeCalls(client);
    } finally {
      await client.close();
    }
  } finally {
    await stopServer(child);
  }
}

async function overStdio() {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--port', '0', '--host', '127.0.0.1'], stderr: 'ignore' }));
  try {
    return await timeCalls(client);
  } finally {
    await client.close();
  }
}

/** Milliseconds from spawn to the first 200 of /_emulator/health. */
async function startOnce(cli) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawnServer([cli, 'serve', '--port', String(port), '--host', '127.0.0.1', '--log-level', 'warn']);
  try {
    await waitHealthy(child, healthy(port), 'serve');
    return performance.now() - t0;
  } finally {
    await stopServer(child);
  }
}

/** Each build's median and best start-up, their runs taken in turn so a busy moment weighs on both alike. */
async function startup(clis) {
  const runs = clis.map(() => []);
  for (let i = 0; i < STARTUP_RUNS; i++) for (const [j, cli] of clis.entries()) runs[j].push(await startOnce(cli));
  return runs.map((r) => [round(median(r)), round(Math.min(...r))]);
}

try {
  console.log(`MCP tool latency: clock.now, ${CALLS} calls after ${WARMUP} warm-up, node ${process.version}\n`);
  const httpFigures = await overHttp();
  const stdioFigures = await overStdio();
  console.log(table([
    ['transport', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', `p95 <= ${TARGET_P95_MS} ms`],
    ...[['streamable HTTP', httpFigures], ['stdio', stdioFigures]].map(([name, f]) => [name, f.p50, f.p95, f.p99, f.max, f.p95 <= TARGET_P95_MS ? 'met' : 'MISSED']),
  ]));
  console.log(`\nstart-up of serve to its first 200 (median of ${STARTUP_RUNS}, runs in turn)`);
  const clis = [CLI, ...(process.env.BASE_CLI ? [process.env.BASE_CLI] : [])];
  const figures = await startup(clis);
  console.log(table([['build', 'median ms', 'best ms'], ...clis.map((cli, i) => [i === 0 ? 'this build' : `BASE_CLI (${cli})`, ...figures[i]])]));
} finally {
  await stopAll();
}
