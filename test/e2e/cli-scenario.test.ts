import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve } from '../support/serve.js';
import { mergeScenarios, readScenarioFile } from '../../src/scenarios/scenario.load.js';

/**
 * `scenario validate | load | show | clear` of the built CLI: validate offline (no emulator),
 * the others against one built server with a frozen clock, moved with `clock advance`.
 */
const HAPPY = 'scenarios/happy-path.yaml';
const SLOW = 'scenarios/slow-employer-signature.yaml';
const START = '2026-10-05T09:00:00.000Z';
const OWNER = 'hrs_test_acme_owner';
const children: ChildProcess[] = [];
/** A client command, never picking up a URL or key from the developer's environment. */
const cli = (args: string[], env: Record<string, string> = {}, cwd?: string) => run(args, children, { EMULATOR_URL: '', EMULATOR_KEY: '', ...env }, cwd);
const dir = mkdtempSync(join(tmpdir(), 'cli-scenario-'));
let url = '';

const BAD = join(dir, 'bad.yaml');
writeFileSync(BAD, [
  'name: bad',
  'rules:',
  '  - match: { all: true }',
  '    employee: { opens: soon, submit: 1h }',
  '    payroll: { outcome: maybe }',
  '',
].join('\n'));
const BROKEN = join(dir, 'broken.yaml');
writeFileSync(BROKEN, 'rules: [\n');
const QUICK = join(dir, 'quick.json');
writeFileSync(QUICK, JSON.stringify({ name: 'quick', rules: [{ name: 'quick ones', match: { reference: 'QUICK-*' }, employee: { opens: '10m', submits: '20m' } }] }));
const MISSING = join(dir, 'missing.yaml');
const DEAD = join(dir, 'dead.yaml');
writeFileSync(DEAD, 'name: dead\nrules:\n  - match: { all: true }\n    employee: { opens: never, submits: 1h }\n  - match: { reference: "X-*" }\n');
const DEAD_WARNINGS = [
  'rules[0].employee.opens is never, so what is scripted after it (employee.submits) plays only if something else takes this step; leave it out instead of never if your test takes it',
  'rules[1] never drives an onboarding: rules[0] matches every onboarding this rule matches, and the first rule that matches wins',
];
/** A folder without a scenarios/ of its own: names must come from the package. */
const ELSEWHERE = mkdtempSync(join(tmpdir(), 'cli-scenario-cwd-'));

async function createOnboarding(reference: string, key = OWNER): Promise<string> {
  const res = await fetch(`${url}/v1/onboardings`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      reference,
      employee: { first_name: 'Sam', last_name: 'Smit', email: 'sam@example.test' },
      employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The types of one onboarding's events, oldest first. */
async function eventTypes(id: string, key = OWNER): Promise<string[]> {
  const all: { id: string; type: string; data: { onboarding_id?: string } }[] = [];
  for (let cursor: string | undefined, page = 0; page < 20; page++) {
    const res = await fetch(`${url}/v1/events?limit=100${cursor ? `&starting_after=${cursor}` : ''}`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { data: typeof all; has_more: boolean };
    all.push(...body.data);
    if (!body.has_more) break;
    cursor = body.data.at(-1)!.id;
  }
  return all.filter((e) => e.data.onboarding_id === id).map((e) => e.type);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const field = (name: string, value: string) => new RegExp(`^${escape(name)}\\s+${escape(value)}$`, 'm');

interface Advance { now: string; fired: { kind: string; step?: string; onboarding_id?: string }[] }
const stepsOf = (advance: Advance, id: string) => advance.fired.filter((f) => f.kind === 'scenario.step' && f.onboarding_id === id).map((f) => f.step);

beforeAll(async () => {
  url = (await serve(['--log-level', 'warn', '--clock', 'frozen', '--start-time', START, '--seed', 'cli'], children)).url;
});

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('onboarding-emulator scenario validate (offline)', () => {
  // Nothing listens here: validate never needs the emulator.
  const offline = { EMULATOR_URL: 'http://127.0.0.1:9' };

  it('prints the name and rule count of valid files, JSON or YAML, and exits 0', async () => {
    const out = await cli(['scenario', 'validate', HAPPY, SLOW, QUICK], offline);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toBe('');
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^file\s+result\s+name\s+rules$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/))).toEqual([
      [HAPPY, 'valid', 'happy-path', '1'],
      [SLOW, 'valid', 'slow-employer-signature', '1'],
      [QUICK, 'valid', 'quick', '1'],
    ]);
  });

  it('prints every mistake as "file: path message (hint)" and exits 1', async () => {
    const out = await cli(['scenario', 'validate', HAPPY, BAD, BROKEN], offline);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(new RegExp(`^${escape(HAPPY)}\\s+valid\\s+happy-path\\s+1$`, 'm'));
    expect(out.stdout).toMatch(new RegExp(`^${escape(BAD)}\\s+3 mistakes\\s+-\\s+-$`, 'm'));
    expect(out.stdout).toMatch(new RegExp(`^${escape(BROKEN)}\\s+1 mistake\\s+-\\s+-$`, 'm'));
    const mistakes = out.stderr.trimEnd().split('\n');
    expect(mistakes).toHaveLength(4);
    expect(mistakes).toEqual(expect.arrayContaining([
      `${BAD}: rules[0].employee.opens "soon" is not a delay (write a delay such as "30m", "1h30m", "2d", "PT2H" or a number of seconds)`,
      `${BAD}: rules[0].employee.submit is not a known field (employee has opens, submits and signs)`,
      `${BAD}: rules[0].payroll.outcome must be one of: success, failure (write success or failure; left out, the organization's payroll_failure switch decides)`,
    ]));
    // A .yaml file is read as YAML; the parser's message ends on the place, without its colon.
    expect(mistakes.find((l) => l.startsWith(`${BROKEN}: `))).toBe(`${BROKEN}: (document) not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1`);
  });

  it('--json gives one result per file, as POST /_emulator/scenarios/validate answers plus the file', async () => {
    const out = await cli(['scenario', 'validate', HAPPY, BAD, '--json'], offline);
    expect(out.code).toBe(1);
    const results = JSON.parse(out.stdout) as { file: string; valid: boolean; mistakes: { path: string }[] }[];
    expect(results[0]).toEqual({ file: HAPPY, valid: true, name: 'happy-path', rules: 1, mistakes: [], warnings: [] });
    expect(results[1]).toMatchObject({ file: BAD, valid: false, name: null, rules: 0 });
    expect(results[1]!.mistakes.map((m) => m.path).sort()).toEqual(['rules[0].employee.opens', 'rules[0].employee.submit', 'rules[0].payroll.outcome']);
  });

  it('a file that cannot be read is a usage problem: exit 2, the other files still checked', async () => {
    const out = await cli(['scenario', 'validate', HAPPY, MISSING], offline);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(`onboarding-emulator: Cannot read scenario file ${MISSING}: no such file\n`);
    expect(out.stdout).toMatch(new RegExp(`^${escape(HAPPY)}\\s+valid`, 'm'));
    expect((await cli(['scenario', 'validate'], offline)).code).toBe(2); // no file
    expect((await cli(['scenario', 'validate', '--help'], offline)).code).toBe(0);
  });

  it('takes ready scenarios by name from any folder; an unknown name is a usage problem that lists the names', async () => {
    const out = await cli(['scenario', 'validate', 'happy-path', 'partner-flow'], offline, ELSEWHERE);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^happy-path\s+valid\s+happy-path\s+1$/m);
    expect(out.stdout).toMatch(/^partner-flow\s+valid\s+partner-flow\s+1$/m);
    const unknown = await cli(['scenario', 'validate', 'happy-pat'], offline, ELSEWHERE);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^onboarding-emulator: No ready scenario is named happy-pat; the ready scenarios are employee-never-opens, flaky-webhooks, happy-path, /);
  });

  it('prints what can do nothing as warnings: valid, exit 0; --json carries them', async () => {
    const out = await cli(['scenario', 'validate', DEAD], offline);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(new RegExp(`^${escape(DEAD)}\\s+valid\\s+dead\\s+2$`, 'm'));
    expect(out.stderr.trimEnd().split('\n')).toEqual(DEAD_WARNINGS.map((w) => `warning: ${DEAD}: ${w}`));
    const json = await cli(['scenario', 'validate', DEAD, '--json'], offline);
    expect(json.stderr).toBe('');
    expect((JSON.parse(json.stdout) as { warnings: { path: string }[] }[])[0]!.warnings.map((w) => w.path)).toEqual(['rules[0].employee.opens', 'rules[1]']);
  });
});

describe('onboarding-emulator scenario load | show | clear', () => {
  it('load checks locally, loads, and prints what it now drives; clock advance plays the steps', async () => {
    const id = await createOnboarding('cli-scenario');
    const loaded = await cli(['scenario', 'load', HAPPY, '--url', url]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout).toMatch(field('scenario', 'happy-path'));
    expect(loaded.stdout).toMatch(field('from', HAPPY));
    expect(loaded.stdout).toMatch(field('rules', '1'));
    expect(loaded.stdout).toMatch(/^planned\s+\d+ onboardings$/m);
    expect(loaded.stdout).toMatch(new RegExp(`^${id}\\s+rules\\[0\\]\\s+employee_opened\\s+2026-10-05T10:00:00\\.000Z$`, 'm'));

    const shown = await cli(['scenario', 'show', '--url', url]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(field('scenario', 'happy-path'));
    expect(shown.stdout).toMatch(field('source', 'api'));
    expect(shown.stdout).toMatch(/^rules\[0\]\s+everyone\s+\{"all":true\}$/m);
    expect(shown.stdout).toMatch(new RegExp(`^${id}\\s+rules\\[0\\]\\s+employee_opened\\s+2026-10-05T10:00:00\\.000Z$`, 'm'));

    const first = await cli(['clock', 'advance', '1h30m', '--url', url, '--json']);
    expect(first.code).toBe(0);
    expect(stepsOf(JSON.parse(first.stdout) as Advance, id)).toEqual(['employee_opened', 'employee_submitted']);
    const next = await cli(['scenario', 'show', '--url', url]);
    expect(next.stdout).toMatch(new RegExp(`^${id}\\s+rules\\[0\\]\\s+identity_verified\\s+2026-10-05T10:45:00\\.000Z$`, 'm'));

    const rest = await cli(['clock', 'advance', '1d', '--url', url, '--json']);
    expect(stepsOf(JSON.parse(rest.stdout) as Advance, id)).toEqual([
      'identity_verified', 'approval_given', 'approval_given', 'approval_given', 'contract_sent', 'employee_signed', 'employer_signed', 'payroll_completed',
    ]);
    expect(await eventTypes(id)).toEqual([
      'onboarding.created', 'onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required',
      'onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approved',
      'contract.sent', 'contract.signed_by_employee', 'onboarding.contract_signed', 'contract.signed',
      'integration.sync_succeeded', 'payroll.completed', 'onboarding.completed',
    ]);
    const done = await cli(['scenario', 'show', '--url', url, '--json']);
    const state = JSON.parse(done.stdout) as { loaded: boolean; planned: { onboarding_id: string }[]; magic_addresses: unknown[] };
    expect(state.loaded).toBe(true);
    expect(state.planned.map((p) => p.onboarding_id)).not.toContain(id);
    expect(state.magic_addresses.length).toBeGreaterThan(0);
  });

  it('load takes ready scenarios by name from any folder', async () => {
    const out = await cli(['scenario', 'load', 'returned-for-correction', '--url', url], {}, ELSEWHERE);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(field('scenario', 'returned-for-correction'));
    expect(out.stdout).toMatch(field('from', 'returned-for-correction'));
    const unknown = await cli(['scenario', 'load', 'happy-pat', '--url', url], {}, ELSEWHERE);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No ready scenario is named happy-pat');
 
    // workspace create --scenario reads names the same way.
    const created = await cli(['workspace', 'create', '--scenario', 'slow-employer-signature', '--url', url, '--json'], {}, ELSEWHERE);
    expect(created.code, created.stderr).toBe(0);
    const ws = JSON.parse(created.stdout) as { id: string };
    expect((await cli(['scenario', 'show', '--workspace', ws.id, '--url', url])).stdout).toMatch(field('scenario', 'slow-employer-signature'));
  });

  it('load prints the warnings of the loaded scenario on stderr and still loads it', async () => {
    const out = await cli(['scenario', 'load', DEAD, '--url', url]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr.trimEnd().split('\n')).toEqual(DEAD_WARNINGS.map((w) => `warning: ${w}`));
    expect(out.stdout).toMatch(field('scenario', 'dead'));
    const json = await cli(['scenario', 'load', DEAD, '--url', url, '--json']);
    expect((JSON.parse(json.stdout) as { warnings: unknown[] }).warnings).toHaveLength(2);
  });

  it('several files are merged as repeated --scenario merges them', async () => {
    const out = await cli(['scenario', 'load', QUICK, HAPPY, '--url', url, '--json']);
    expect(out.code, out.stderr).toBe(0);
    const state = JSON.parse(out.stdout) as { name: string; document: unknown };
    expect(state.name).toBe('quick + happy-path');
    expect(state.document).toEqual(mergeScenarios([readScenarioFile(QUICK), readScenarioFile(HAPPY)]));
    const shown = await cli(['scenario', 'show', '--url', url]);
    expect(shown.stdout).toMatch(/^rules\[0\]\s+quick ones\s+\{"reference":"QUICK-\*"\}$/m);
    expect(shown.stdout).toMatch(/^rules\[1\]\s+everyone\s+\{"all":true\}$/m);
  });

  it('clear removes the scenario and no further step plays', async () => {
    expect((await cli(['scenario', 'load', HAPPY, '--url', url])).code).toBe(0);
    const id = await createOnboarding('cli-scenario-clear');
    const opened = await cli(['clock', 'advance', '1h', '--url', url, '--json']);
    expect(stepsOf(JSON.parse(opened.stdout) as Advance, id)).toEqual(['employee_opened']);

    const cleared = await cli(['scenario', 'clear', '--url', url]);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toMatch(field('scenario', 'none'));
    expect(cleared.stdout).not.toContain(id);
    const later = await cli(['clock', 'advance', '2d', '--url', url, '--json']);
    expect((JSON.parse(later.stdout) as Advance).fired.filter((f) => f.kind === 'scenario.step')).toEqual([]);
    expect(await eventTypes(id)).toEqual(['onboarding.created', 'onboarding.started']);
    const shown = await cli(['scenario', 'show', '--url', url, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ loaded: false, name: null, document: null });
  });

  it('a file with mistakes is not sent: every mistake, exit 1, the loaded scenario stays', async () => {
    expect((await cli(['scenario', 'load', HAPPY, '--url', url])).code).toBe(0);
    const out = await cli(['scenario', 'load', HAPPY, BAD, '--url', url]);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(`${BAD}: rules[0].employee.opens "soon" is not a delay`);
    expect(out.stderr).toContain(`${BAD}: rules[0].payroll.outcome must be one of: success, failure`);
    expect(out.stderr).toContain('nothing was loaded');
    expect((await cli(['scenario', 'load', MISSING, '--url', url])).code).toBe(2);
    const shown = await cli(['scenario', 'show', '--url', url]);
    expect(shown.stdout).toMatch(field('scenario', 'happy-path'));
  });

  it("the emulator's own refusal (422 scenario_invalid) is printed with its details: exit 1", async () => {
    // Each file is valid on its own, but merged they have more rules than a scenario may hold:
    // only the emulator sees the merged document, and refuses it with the path.
    const many = (prefix: string) => {
      const file = join(dir, `${prefix}.yaml`);
      writeFileSync(file, `rules:\n${Array.from({ length: 101 }, (_, i) => `  - match: { reference: "${prefix}-${i}" }\n`).join('')}`);
      return file;
    };
    const out = await cli(['scenario', 'load', many('A'), many('B'), '--url', url]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^error 422 scenario_invalid: /m);
    expect(out.stderr).toMatch(/^ {2}rules must have at most 200 items/m);
    expect((await cli(['scenario', 'show', '--url', url])).stdout).toMatch(field('scenario', 'happy-path'));
  });

  it('--workspace loads, shows and clears the scenario of the workspace named', async () => {
    const created = await fetch(`${url}/_emulator/workspaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"scenario": null}' });
    const ws = (await created.json()) as { id: string; keys: { key: string }[] };
    const key = ws.keys.find((k) => k.key.startsWith(`${OWNER}_`))!.key;
    expect((await cli(['scenario', 'clear', '--url', url])).code).toBe(0);

    const loaded = await cli(['scenario', 'load', SLOW, '--workspace', ws.id, '--url', url]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout).toMatch(field('scenario', 'slow-employer-signature'));
    expect((await cli(['scenario', 'show', '--workspace', ws.id, '--url', url])).stdout).toMatch(field('scenario', 'slow-employer-signature'));
    expect((await cli(['scenario', 'show', '--key', key, '--url', url])).stdout).toMatch(field('scenario', 'slow-employer-signature'));
    expect((await cli(['scenario', 'show', '--url', url])).stdout).toMatch(field('scenario', 'none'));

    const id = await createOnboarding('cli-scenario-ws', key);
    const moved = await cli(['clock', 'advance', '1h', '--key', key, '--url', url, '--json']);
    expect(stepsOf(JSON.parse(moved.stdout) as Advance, id)).toEqual(['employee_opened']);

    expect((await cli(['scenario', 'clear', '--workspace', ws.id, '--url', url])).stdout).toMatch(field('scenario', 'none'));
    const unknown = await cli(['scenario', 'show', '--workspace', 'ws_missing', '--url', url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error 404 workspace_not_found: /m);
  });

  it('cannot reach the emulator: exit 2', async () => {
    const out = await cli(['scenario', 'show', '--url', 'http://127.0.0.1:9']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('cannot reach the emulator');
  });
});
