// What the exports cost to make: a journal of 1000 recorded requests as HAR, and the Postman
// collection, each asked over HTTP of an in-process emulator on 127.0.0.1 (median of 10, after
// one warm-up). Run after a build:
//
//   node bench/exports.mjs
import { performance } from 'node:perf_hooks';
import { createEmulator } from '../dist/index.js';

const REQUESTS = 1000;
const RUNS = 10;

const em = createEmulator({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' } });
const { url } = await em.start(0);
try {
  const headers = { Authorization: 'Bearer hrs_test_acme_owner' };
  for (let i = 0; i < REQUESTS; i++) await (await fetch(`${url}/v1/onboardings/onb_demo_jansen`, { headers })).arrayBuffer();
  const median = async (fn) => {
    await fn();
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await fn();
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)].toFixed(1);
  };
  const har = await (await fetch(`${url}/_emulator/requests?format=har`)).text();
  console.log(`GET /_emulator/requests?format=har, ${REQUESTS} entries (${har.length} bytes): median ${await median(async () => (await fetch(`${url}/_emulator/requests?format=har`)).json())} ms`);
  console.log(`GET /_emulator/postman: median ${await median(async () => (await fetch(`${url}/_emulator/postman`)).json())} ms`);
} finally {
  await em.close();
}
