import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { removeContainers, start, waitHealthy } from './docker.js';

/**
 * The service container of docs/testing.md ("GitHub Actions, as a service container") as the
 * runner would start it: the documented `env` and `options` (if any) on `docker run`, the image
 * under test in place of the registry's, the documented container port published on 127.0.0.1
 * only. The runner waits for the engine to call the container healthy; it must be so soon.
 */
const DOC = new URL('../../docs/testing.md', import.meta.url);
const HEADING = '### GitHub Actions, as a service container';

interface Service {
  image: string;
  ports?: (string | number)[];
  env?: Record<string, string | number | boolean>;
  options?: string;
}

afterAll(removeContainers);

/** The first service of the first job in the workflow under the heading. */
function documentedService(): { name: string; service: Service } {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(`\n${HEADING}\n`);
  if (start < 0) throw new Error(`docs/testing.md has no "${HEADING}" section`);
  const rest = text.slice(start + HEADING.length + 2);
  const end = rest.search(/^#{2,3} /m);
  const found = /^```yaml\n([\s\S]*?)^```$/m.exec(end < 0 ? rest : rest.slice(0, end));
  if (!found) throw new Error(`docs/testing.md: no \`\`\`yaml block under "${HEADING}"`);
  const workflow = parse(found[1]!) as { jobs?: Record<string, { services?: Record<string, Service> }> };
  const services = Object.values(workflow.jobs ?? {})[0]?.services ?? {};
  const [name, service] = Object.entries(services)[0] ?? [];
  if (!name || !service) throw new Error(`the workflow under "${HEADING}" has no service container`);
  return { name, service };
}

describe('the documented GitHub Actions service container', () => {
  it('is healthy within 5 s with the documented env and options, and answers /v1 with the documented key', async () => {
    const { service } = documentedService();
    const env = Object.entries(service.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${String(v)}`]);
    const options = (service.options ?? '').split(/\s+/).filter(Boolean);
    // "4010:4010" (host:container): the container port is the last part.
    const ports = (service.ports ?? []).map((p) => Number(String(p).split(':').at(-1)));
    expect(ports).toEqual([4010]);

    const began = performance.now();
    const c = await start({ docker: [...env, ...options], port: ports[0]! });
    const healthyAfter = await waitHealthy(c.id, began, 5_000);
    console.log(`service container: docker run to healthy ${Math.round(healthyAfter)} ms (options: ${options.join(' ') || 'none'})`);
    expect(healthyAfter).toBeLessThanOrEqual(5_000);

    const res = await fetch(`${c.base}/v1/onboardings`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
    expect(res.status).toBe(200);
    // The documented env took effect: the frozen clock at the start time, the ready scenario.
    const clock = (await (await fetch(`${c.base}/_emulator/clock`)).json()) as { mode: string; now: string };
    expect(clock).toEqual(expect.objectContaining({ mode: service.env?.EMULATOR_CLOCK, now: new Date(String(service.env?.EMULATOR_START_TIME)).toISOString() }));
    const scenario = (await (await fetch(`${c.base}/_emulator/scenario`)).json()) as { name?: string };
    expect(scenario.name).toBe(service.env?.EMULATOR_SCENARIO);
  }, 60_000);
});
