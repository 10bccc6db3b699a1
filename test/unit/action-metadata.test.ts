import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { WELL_KNOWN_KEYS } from '../../src/fixtures/well-known-keys.js';
import { DEFAULT_IMAGE } from '../../src/testcontainers.js';
import { checkLocalActions } from '../../scripts/lib/local-actions.mjs';

/**
 * The GitHub Action's two metadata files (action.yml, report/action.yml) against the scripts
 * they run: what a typo there would break only on a partner's runner.
 */
interface Step { id?: string; run?: string; uses?: string; if?: string; env?: Record<string, string>; with?: Record<string, string> }
interface Action { inputs: Record<string, { default?: string; required?: boolean }>; outputs: Record<string, { value: string }>; runs: { using: string; steps: Step[] } }

const FILES = ['action.yml', 'report/action.yml'];
const load = (file: string) => parse(readFileSync(file, 'utf8')) as Action;

describe.each(FILES)('%s', (file) => {
  const action = load(file);
  const steps = action.runs.steps;
  const text = JSON.stringify(steps);

  it('is a composite action whose run steps say their shell', () => {
    expect(action.runs.using).toBe('composite');
    for (const s of steps.filter((x) => x.run)) expect(s).toHaveProperty('shell', 'bash');
  });

  it('declares every input its steps read, and reads every input it declares', () => {
    const used = new Set([...text.matchAll(/inputs\.([A-Za-z0-9_-]+)/g)].map((m) => m[1]));
    expect([...used].filter((name) => !(name! in action.inputs))).toEqual([]);
    expect(Object.keys(action.inputs).filter((name) => !used.has(name))).toEqual([]);
  });

  it('runs scripts that exist, and each INPUT_ variable it passes is one the script reads', () => {
    const scripts = steps.flatMap((s) => [...(s.run ?? '').matchAll(/"\$GITHUB_ACTION_PATH\/([^"]+)"/g)].map((m) => ({ step: s, path: join(dirname(file), m[1]!) })));
    expect(scripts.length).toBeGreaterThan(0);
    for (const { step, path } of scripts) {
      expect(existsSync(path), path).toBe(true);
      const source = readFileSync(path, 'utf8');
      for (const name of Object.keys(step.env ?? {}).filter((n) => n.startsWith('INPUT_'))) {
        const input = name.slice('INPUT_'.length).toLowerCase().replace(/_/g, '-');
        expect(source, `${path} reads ${input}`).toMatch(new RegExp(`\\b(input|integer)\\('${input}'`));
      }
    }
  });

  it('takes each output from a step that exists', () => {
    const ids = new Set(steps.map((s) => s.id).filter(Boolean));
    for (const [name, o] of Object.entries(action.outputs)) {
      const [, id] = /steps\.([A-Za-z0-9_-]+)\.outputs\./.exec(o.value) ?? [];
      expect(ids.has(id), `${name} from ${o.value}`).toBe(true);
    }
  });

  it('pins the actions it uses to a major version', () => {
    for (const s of steps.filter((x) => x.uses)) expect(s.uses).toMatch(/^[\w-]+\/[\w-]+@v\d+$/);
  });
});

describe('report/action.yml', () => {
  it('states a status check on every step, so none is skipped after the job failed', () => {
    for (const s of load('report/action.yml').runs.steps) expect(s.if, JSON.stringify(s)).toMatch(/always\(\)|cancelled\(\)/);
  });
});

describe('the start script and the package agree', () => {
  const lib = readFileSync('action/lib.mjs', 'utf8');
  const start = readFileSync('action/start.mjs', 'utf8');

  it('outputs the fixtures\' owner key', () => {
    expect(lib).toContain(`OWNER_KEY = '${WELL_KNOWN_KEYS.owner}'`);
  });

  it('pulls the registry image the Testcontainers module names', () => {
    const repository = DEFAULT_IMAGE.slice(0, DEFAULT_IMAGE.lastIndexOf(':'));
    expect(start).toContain(`REGISTRY = '${repository}'`);
  });
});

describe('lint:workflows on steps that use an action of this repository', () => {
  const workflow = (withLines: string, read = 'key') => [
    'on: push', 'jobs:', '  t:', '    runs-on: ubuntu-24.04', '    steps:',
    '      - id: emulator', '        uses: ./', '        with:', withLines,
    `      - run: echo "\${{ steps.emulator.outputs.${read} }}"`,
  ].join('\n');

  it('passes the self-test workflow', () => {
    expect(checkLocalActions('.', readFileSync('.github/workflows/action-selftest.yml', 'utf8'))).toEqual([]);
  });

  it('finds an input the action does not declare and an output it does not have', () => {
    const findings = checkLocalActions('.', workflow('          seeed: "7"', 'base_url')).map((f) => f.message);
    expect(findings).toEqual([
      expect.stringMatching(/input "seeed" is not defined in \.\//),
      expect.stringMatching(/output "base_url" is not defined in \.\//),
    ]);
  });

  it('finds a step using a folder with no action.yml', () => {
    const text = workflow('          seed: "7"').replace('uses: ./', 'uses: ./nowhere');
    expect(checkLocalActions('.', text).map((f) => f.message)).toEqual([expect.stringMatching(/\.\/nowhere has no action\.yml/)]);
  });
});

describe('the documented workflow and tables', () => {
  const start = load('action.yml');
  const report = load('report/action.yml');

  it.each(['README.md', 'docs/testing.md'])('%s: a job of at most 10 lines whose inputs both actions declare', (page) => {
    const text = readFileSync(page, 'utf8');
    const block = /### (The )?GitHub Action\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(text)?.[2];
    expect(block).toBeDefined();
    expect(block!.trimEnd().split('\n').length).toBeLessThanOrEqual(10);
    const steps = (parse(block!) as { jobs: Record<string, { steps: Step[] }> }).jobs.test!.steps;
    const startStep = steps.find((s) => /^[\w-]+\/onboarding-emulator@/.test(s.uses ?? ''))!;
    const reportStep = steps.find((s) => /\/report@/.test(s.uses ?? ''))!;
    expect(Object.keys(startStep.with ?? {}).filter((k) => !(k in start.inputs))).toEqual([]);
    expect(reportStep.if).toBe('always()');
  });

  it('docs/testing.md lists every input of both actions', () => {
    const text = readFileSync('docs/testing.md', 'utf8');
    for (const name of [...Object.keys(start.inputs), ...Object.keys(report.inputs)]) expect(text).toContain(`| \`${name}\` |`);
  });
});
