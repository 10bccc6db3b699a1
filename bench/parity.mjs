// What a parity replay costs offline: the shipped corpus, and 20 flows made of it (its flows,
// some twice: a second run of a flow meets what the first left, idempotency keys and all, so
// those drift, which costs the same), replayed against an in-process emulator on 127.0.0.1 as
// `parity run` does (median of 3 after one warm-up). The target: 20 flows within 60 s. Run
// after a build:
//
//   node bench/parity.mjs
import { performance } from 'node:perf_hooks';
import { createEmulator, operationsOf, readCorpus, runParity, SHIPPED_CORPUS, WELL_KNOWN_KEYS } from '../dist/index.js';
import { buildOpenApi } from '../dist/http/openapi.js';

const RUNS = 3;
const shipped = readCorpus(SHIPPED_CORPUS);
const twenty = Array.from({ length: 20 }, (_, i) => ({ ...shipped[i % shipped.length], flow: `${shipped[i % shipped.length].flow}-${i}` }));
const operations = operationsOf(buildOpenApi());

async function replay(flows, mustMatch) {
  const em = createEmulator({ seed: 'bench' });
  const { url } = await em.start(0, '127.0.0.1');
  try {
    const start = performance.now();
    const report = await runParity(flows, { url, keys: WELL_KNOWN_KEYS }, operations);
    if (mustMatch && !report.ok) throw new Error(`the shipped corpus drifted: ${report.counts.drift} steps`);
    return { ms: performance.now() - start, steps: report.counts.steps };
  } finally {
    await em.close();
  }
}

for (const [what, flows] of [['the shipped corpus', shipped], ['20 flows', twenty]]) {
  await replay(flows, flows === shipped);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await replay(flows, flows === shipped));
  const median = runs.map((r) => r.ms).sort((a, b) => a - b)[Math.floor(RUNS / 2)];
  console.log(`parity run, ${what} (${flows.length} flows, ${runs[0].steps} steps): median ${(median / 1000).toFixed(2)} s (target: 20 flows within 60 s)`);
}
