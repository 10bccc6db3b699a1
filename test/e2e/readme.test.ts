import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PAGES, logicalLines, readmeScript, shBlocks } from '../support/readme-script.js';

/**
 * Runs the shell examples of the README and of the reference pages it links to, in the order
 * of EXAMPLE_PAGES, against one freshly started emulator, and checks each curl command's
 * status against its `# => NNN` line, so none of them can drift. An example is a ```sh block;
 * other blocks (```bash, plain ```) are not run.
 */
let child: ChildProcess;
let base = '';

beforeAll(async () => {
  child = spawn(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('emulator did not start')), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      const url = /"url":"(http:[^"]+)"/.exec(chunk.toString())?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
  });
});

afterAll(() => {
  child?.kill('SIGKILL');
});

describe('README examples', () => {
  it('are found on every page they are kept on', () => {
    for (const page of EXAMPLE_PAGES) expect(shBlocks(page).join('\n'), page).toMatch(/^curl .*\n# => \d{3}$/m);
  });

  it('cover every endpoint built so far', () => {
    const { examples } = readmeScript();
    const text = examples.map((e) => e.command).join('\n');
    for (const path of [
      '/v1/organizations', '/v1/organization ', '/v1/onboardings ', '/v1/employees', '/hosted-link', '/cancel', '-X PATCH',
      '/v1/sandbox/onboardings/', '/identity-verification', '/approvals ', '/v1/approvals ', '/contract ', '/v1/events', '/documents ',
      '/documents/$DOC', '/v1/integrations', '/review-sessions', '/_emulator/health', '/_emulator/keys', '/_emulator/workspaces',
      '/_emulator/reset', '/_emulator/clock ', '/_emulator/clock/advance', '/_emulator/onboardings/', '/_emulator/outbox',
      '/_emulator/organizations/', '/_emulator/audit-log', '/openapi.json', '/v1/webhooks ', '/test ', '/rotate-secret',
      '/deliveries', '/_emulator/webhooks/', '-X DELETE localhost:4010/v1/webhooks/', '/_emulator/faults',
      '-X PUT localhost:4010/_emulator/scenario', 'localhost:4010/_emulator/scenario\n', '-X DELETE localhost:4010/_emulator/scenario', '/_emulator/scenarios/validate',
    ]) {
      expect(text).toContain(path);
    }
    expect(examples.length).toBeGreaterThan(20);
  });

  it('show the reader each status as its comment does, through the curl the tour defines first', () => {
    const [first] = EXAMPLE_PAGES.slice(0, 1).flatMap(shBlocks).map(logicalLines);
    expect(first![0]).toMatch(/^curl\(\) \{ command curl -s -w '%\{stderr\}.*# => %\{http_code\}.*"\$@"; \}$/);
    const port = new URL(base).port;
    const script = first!.filter((l) => l.trim() && !l.startsWith('#')).join('\n').replaceAll('localhost:4010', `127.0.0.1:${port}`);
    const run = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 30_000 });
    // The body on stdout, the status on stderr in the comment's own words.
    expect(run.stdout).toContain('"object":"list"');
    expect(run.stderr.split('\n').filter((l) => l.startsWith('# =>'))).toEqual(first!.filter((l) => /^# => \d{3}$/.test(l)));
  });

  it('answer with the statuses the README promises', () => {
    const { script, examples } = readmeScript();
    const port = new URL(base).port;
    const out = execFileSync('bash', ['-c', script.replaceAll('localhost:4010', `127.0.0.1:${port}`)], { encoding: 'utf8', timeout: 60_000 });
    const got = out.trim().split('\n').map(Number);
    expect(got.map((status, i) => `${status} ${examples[i]!.command.slice(0, 90)}`)).toEqual(
      examples.map((e) => `${e.expected} ${e.command.slice(0, 90)}`),
    );
  });
});
