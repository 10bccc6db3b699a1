import { afterAll, describe, expect, it } from 'vitest';
import { inspect, logs, moreProbes, must, removeContainers, start, waitForStatus, waitHealthy } from './docker.js';
import { record } from './numbers.js';

/**
 * What the running container costs: V8's compile cache is there for the user the emulator runs
 * as and a start reads it; with --memory 64m and a health probe every 2 s, a bounded load
 * leaves the emulator running (no OOM kill); idle and peak memory are recorded.
 */
const OWNER = { Authorization: 'Bearer hrs_test_acme_owner' };

afterAll(removeContainers);

/** The container's memory use in MiB as the engine accounts it (cgroup), from `docker stats`. */
async function memoryMiB(id: string): Promise<number> {
  const usage = (await must(['stats', '--no-stream', '--format', '{{.MemUsage}}', id])).split('/')[0]!.trim();
  const m = /^([\d.]+)\s*([KMG]i?B)$/.exec(usage);
  if (!m) throw new Error(`unreadable memory figure ${usage}`);
  const factor: Record<string, number> = { KiB: 1 / 1024, MiB: 1, GiB: 1024, kB: 1 / 1048.576, MB: 1 / 1.048576, GB: 1000 / 1.048576 };
  return Number(m[1]) * factor[m[2]!]!;
}

describe('the running container', () => {
  it('reads the compile cache filled for uid 1000 at build time', async () => {
    const c = await start({ docker: ['-e', 'NODE_DEBUG_NATIVE=COMPILE_CACHE'] });
    await waitForStatus(`${c.base}/_emulator/health`);
    expect(await must(['exec', c.id, 'id', '-u'])).toBe('1000');
    const folders = (await must(['exec', c.id, 'ls', '/app/.compile-cache'])).split('\n');
    expect(folders.some((f) => f.endsWith('-1000'))).toBe(true);
    const out = await logs(c.id);
    expect(out).toMatch(/reading cache from \/app\/\.compile-cache\/[^ ]+-1000\/\S+ for ESM file:\/\/\/app\/dist\/cli\/main\.js\.\.\.\[[^\]]*\]\.\.\. success/);
    expect(out).toMatch(/V8 code cache for ESM file:\/\/\/app\/dist\/cli\/main\.js was accepted/);
  });

  it('survives --memory 64m with probes every 2 s under a bounded load; idle and peak memory recorded', async () => {
    const began = performance.now();
    const c = await start({ docker: ['--memory', '64m', '--memory-swap', '64m', '--health-interval', '2s'] });
    await waitHealthy(c.id, began);
    // Idle: the server left alone but for the engine's probes, one more of which has run.
    await moreProbes(c.id, 1);
    const idle = await memoryMiB(c.id);
    record({ name: 'memory idle, probes every 2 s (docker stats)', value: idle, unit: 'MiB', target: 'under 64 MiB' });

    // 20 concurrent clients for at most 15 s or 6,000 requests: reads and writes.
    let sent = 0;
    let peak = idle;
    const stopAt = performance.now() + 15_000;
    const client = async (n: number) => {
      while (sent < 6_000 && performance.now() < stopAt) {
        sent++;
        const res = n % 4 === 0
          ? await fetch(`${c.base}/v1/onboardings?limit=100`, { headers: OWNER })
          : await fetch(`${c.base}/v1/onboardings/onb_demo_jansen`, { headers: OWNER });
        await res.arrayBuffer();
      }
    };
    const sampler = (async () => {
      while (performance.now() < stopAt && sent < 6_000) {
        peak = Math.max(peak, await memoryMiB(c.id));
      }
    })();
    await Promise.all([...Array.from({ length: 20 }, (_, i) => client(i)), sampler]);
    record({ name: `memory peak under load (${sent} requests, 20 clients, --memory 64m)`, value: peak, unit: 'MiB' });

    expect(await inspect(c.id, '{{.State.Running}} {{.State.OOMKilled}}')).toBe('true false');
    const probes = JSON.parse(await inspect(c.id, '{{json .State.Health.Log}}')) as { ExitCode: number }[];
    expect(probes.at(-1)?.ExitCode).toBe(0);
    expect(idle).toBeLessThan(64);
  });
});
