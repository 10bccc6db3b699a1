// Clock benchmarks of the life cycle and the memory target (docs/benchmarks.md), in this
// process on the built code:
//   - advancing a workspace 30 days with nothing due (target: under 5 ms);
//   - advancing 30 days with 10,000 timers due (the event-retention timers of 5,000 onboardings
//     created with an invitation, each 2 events): reported;
//   - resident memory with 10,000 onboardings and their events (target: under 200 MB).
// Run with `npm run bench` (after bench/run.mjs) or `node --expose-gc bench/advance.mjs`.
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { Emulator } = await import(`${ROOT}dist/emulator.js`);
const { actFor, findCaller } = await import(`${ROOT}dist/resources/organizations/organizations.access.js`);
const { createOnboarding } = await import(`${ROOT}dist/resources/onboardings/onboardings.service.js`);

const DAY = 86_400_000;
const body = (i, invite) => ({
  reference: `bench-${i}`,
  metadata: { batch: 'bench' },
  employee: { first_name: 'Bench', last_name: `Person ${i}`, email: `bench${i}@example.test` },
  employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
  options: { send_invitation: invite },
});

function freshWorkspace(seed) {
  const emulator = new Emulator({ seed, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
  const ws = emulator.defaultWorkspace;
  const principal = actFor(ws.store, findCaller(ws.store, 'hrs_test_acme_owner', undefined), undefined, 'onboardings:write');
  return { ws, create: (i, invite) => createOnboarding(ws, principal, body(i, invite)) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// 1. Nothing due: an empty workspace (its two fixture events are purged first).
const idle = [];
{
  const { ws } = freshWorkspace('idle');
  await ws.scheduler.advanceBy(31 * DAY);
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await ws.scheduler.advanceBy(30 * DAY);
    idle.push(performance.now() - t);
  }
}

// 2. 10,000 timers due.
const busy = [];
let firedCount = 0;
for (let run = 0; run < 3; run++) {
  const { ws, create } = freshWorkspace(`busy-${run}`);
  await ws.scheduler.advanceBy(31 * DAY); // fixtures' events out of the way
  for (let i = 0; i < 5_000; i++) create(i, true);
  const t = performance.now();
  firedCount = (await ws.scheduler.advanceBy(30 * DAY)).length;
  busy.push(performance.now() - t);
}

// 3. Memory with 10,000 onboardings and their events.
globalThis.gc?.();
const before = process.memoryUsage().rss;
const { ws, create } = freshWorkspace('memory');
for (let i = 0; i < 10_000; i++) create(i, i % 2 === 0);
globalThis.gc?.();
const rss = process.memoryUsage().rss;
const counts = { onboardings: ws.store.onboardings.size, events: ws.store.events.size, timers: ws.timers.size };

const results = {
  advance_30_days_nothing_due_ms: { median: +median(idle).toFixed(3), max: +Math.max(...idle).toFixed(3), target_max: 5 },
  advance_30_days_10000_timers_ms: { median: +median(busy).toFixed(1), runs: busy.map((x) => +x.toFixed(1)), fired: firedCount },
  memory_10000_onboardings: { rss_mb: +(rss / 2 ** 20).toFixed(1), rss_before_mb: +(before / 2 ** 20).toFixed(1), ...counts, target_max_mb: 200 },
};
console.log('\nclock and memory');
console.log(`  advance 30 days, nothing due:      median ${results.advance_30_days_nothing_due_ms.median} ms (max ${results.advance_30_days_nothing_due_ms.max}; target < 5 ms: ${median(idle) < 5 ? 'met' : 'MISSED'})`);
console.log(`  advance 30 days, ${firedCount} timers due:  median ${results.advance_30_days_10000_timers_ms.median} ms (runs ${results.advance_30_days_10000_timers_ms.runs.join(', ')})`);
console.log(`  10,000 onboardings + ${counts.events} events: rss ${results.memory_10000_onboardings.rss_mb} MB (target < 200 MB: ${rss / 2 ** 20 < 200 ? 'met' : 'MISSED'})`);

const file = new URL('./results.json', import.meta.url);
const all = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
writeFileSync(file, JSON.stringify({ ...all, clock: results }, null, 2) + '\n');
