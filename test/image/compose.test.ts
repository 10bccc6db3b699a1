import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/net.js';
import { docker, IMAGE } from './docker.js';

/**
 * The compose file of docs/testing.md ("docker compose, beside the app under test"), run with
 * Compose v1 (Debian's docker-compose 1.29). Only the image name, the host port and the app
 * differ from the documented file: the app is the image under test running a small receiver
 * with node, which uses the documented ONBOARDING_API_URL and ONBOARDING_API_KEY, registers
 * http://app:3000/webhooks, pings it and exits 0 once a signed message arrived. It starts only
 * when the emulator is healthy by the image's own HEALTHCHECK.
 */
const DOC = new URL('../../docs/testing.md', import.meta.url);
const HAPPY_PATH = new URL('../../scenarios/happy-path.yaml', import.meta.url);
const HEADING = '### docker compose, beside the app under test';
const project = `oe-image-suite-compose-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'oe-compose-'));
const file = join(work, 'compose.yaml');

/** The app: no `$` (Compose would read it as a variable) and no template literals. */
const RECEIVER = `
const http = require('node:http');
const api = process.env.ONBOARDING_API_URL;
const key = process.env.ONBOARDING_API_KEY;
const call = async (method, path, body) => {
  const res = await fetch(api + path, { method, headers: { Authorization: 'Bearer ' + key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(method + ' ' + path + ' answered ' + res.status + ': ' + (await res.text()));
  return res.json();
};
setTimeout(() => { console.error('app: no webhook message within 20 s'); process.exit(1); }, 20000);
// Exits 0 once both happened, in either order: the signed message answered, and the ping's own chain done.
let left = 2;
const done = () => { left -= 1; if (left === 0) process.exit(0); };
let signed = false;
http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', () => {
    if (signed || req.method !== 'POST' || req.url !== '/webhooks' || !req.headers['service-signature']) return void res.end('ok');
    signed = true;
    console.log('app: webhook ' + req.headers['service-event-id'] + ' signed ' + req.headers['service-signature']);
    res.end('ok', done);
  });
}).listen(3000, () => {
  call('POST', '/v1/webhooks', { url: 'http://app:3000/webhooks' })
    .then((hook) => call('POST', '/v1/webhooks/' + hook.id + '/test', {}))
    .then(() => fetch(api + '/_emulator/scenario'))
    .then((res) => res.json())
    .then((scenario) => { console.log('app: ping sent, scenario ' + scenario.name); done(); }, (err) => { console.error('app: ' + err.message); process.exit(1); });
});
`;

function compose(args: string[], timeoutMs: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('docker-compose', ['--ansi', 'never', '-p', project, '-f', file, ...args], { cwd: work, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, out: `${stdout}${stderr}${err && code === -1 ? `\n${err.message}` : ''}` });
    });
  });
}

afterAll(async () => {
  await compose(['down', '-v', '--remove-orphans', '--timeout', '5'], 60_000);
  // Whatever `down` could not take away (docker-compose missing, a run cut short).
  const left = (await docker(['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`])).stdout.split('\n').filter(Boolean);
  if (left.length) await docker(['rm', '-f', '-v', ...left]);
  rmSync(work, { recursive: true, force: true });
});

/** The YAML block under the heading, with `from` replaced by `to` (each must occur once). */
function documentedFile(replacements: [RegExp, string][]): string {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(`\n${HEADING}\n`);
  if (start < 0) throw new Error(`docs/testing.md has no "${HEADING}" section`);
  const rest = text.slice(start + HEADING.length + 2);
  const end = rest.search(/^#{2,3} /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const found = /^```yaml\n([\s\S]*?)^```$/m.exec(section);
  if (!found) throw new Error(`docs/testing.md: no \`\`\`yaml block under "${HEADING}"`);
  let yaml = found[1]!;
  for (const [from, to] of replacements) {
    if ((yaml.match(new RegExp(from.source, 'gm')) ?? []).length !== 1) throw new Error(`the documented compose file no longer has one line matching ${from}:\n${yaml}`);
    yaml = yaml.replace(from, to);
  }
  return yaml;
}

describe('the documented compose file, with docker-compose 1.29', () => {
  it('starts the app once the emulator is healthy, and the app receives a signed webhook by service name', async () => {
    const version = await compose(['version', '--short'], 30_000);
    if (version.code !== 0) throw new Error(`docker-compose does not run (install the Debian package docker-compose): ${version.out.trim()}`);
    expect(RECEIVER).not.toContain('$');

    const port = await closedPort();
    const yaml = documentedFile([
      [/^(\s+image:) onboarding-emulator\b.*$/m, `$1 ${IMAGE}`],
      [/"127\.0\.0\.1:4010:4010"/m, `"127.0.0.1:${port}:4010"`],
      [/^(\s+)build: \.$/m, `$1image: ${IMAGE}\n$1entrypoint: ["node"]\n$1command: ["-e", ${JSON.stringify(RECEIVER)}]`],
    ]);
    writeFileSync(file, yaml);
    // The documented mount, ./test/scenarios:/scenarios:ro, read by the image's user (uid 1000).
    mkdirSync(join(work, 'test', 'scenarios'), { recursive: true });
    copyFileSync(HAPPY_PATH, join(work, 'test', 'scenarios', 'ours.yaml'));
    for (const dir of [work, join(work, 'test'), join(work, 'test', 'scenarios')]) chmodSync(dir, 0o755);
    chmodSync(join(work, 'test', 'scenarios', 'ours.yaml'), 0o644);

    const began = performance.now();
    const up = await compose(['up', '--no-color', '--exit-code-from', 'app'], 120_000);
    console.log(`docker-compose up until the app exited: ${Math.round(performance.now() - began)} ms`);
    expect(up.code, up.out).toBe(0);
    expect(up.out).toMatch(/app: webhook evt_\S+ signed t=\d+/);
    expect(up.out).toContain('app: ping sent, scenario happy-path');

    // compose created the app once a probe of the image's HEALTHCHECK had passed (the engine keeps the last 5 probes).
    const ids = (await docker(['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`])).stdout.split('\n').filter(Boolean);
    const containers = JSON.parse((await docker(['inspect', ...ids])).stdout) as {
      Created: string; Config: { Labels: Record<string, string> }; State: { Health?: { Log: { Start: string; ExitCode: number }[] } };
    }[];
    const service = (name: string) => containers.find((c) => c.Config.Labels['com.docker.compose.service'] === name);
    const probes = service('onboarding')?.State.Health?.Log ?? [];
    const passed = probes.find((p) => p.ExitCode === 0);
    expect(passed, 'a passing probe of the image\'s HEALTHCHECK').toBeDefined();
    if (probes.length < 5) expect(Date.parse(service('app')!.Created)).toBeGreaterThan(Date.parse(passed!.Start));
  }, 180_000);
});
