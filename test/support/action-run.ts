import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Runs one of the GitHub Action's scripts (action/*.mjs) as the runner would: inputs as INPUT_*
 * variables, and the files the runner reads afterwards ($GITHUB_OUTPUT, $GITHUB_ENV,
 * $GITHUB_STEP_SUMMARY) as temporary files, parsed back here.
 */
const run = promisify(execFile);

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  env: Record<string, string>;
  summary: string;
  /** The folder the files live in (RUNNER_TEMP too, so the report's default folder is in it). */
  dir: string;
}

/** `name<<DELIMITER` blocks, the runner's form for any value; a later one wins, as on the runner. */
function parseRunnerFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const end = lines.indexOf(m[2]!, i + 1);
    if (end < 0) throw new Error(`no closing ${m[2]} for ${m[1]}`);
    values[m[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return values;
}

export async function runActionScript(script: 'start' | 'report', env: Record<string, string>, timeoutMs = 120_000): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), 'oe-action-'));
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_ENV: join(dir, 'env'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  // Nothing of the calling environment's runner variables leaks in: only what the test gives.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(INPUT_|GITHUB_|EMULATOR_|ONBOARDING_EMULATOR_)/.test(k)));
  let code = 0;
  let stdout = '';
  let stderr = '';
  try {
    ({ stdout, stderr } = await run(process.execPath, [`action/${script}.mjs`], { env: { ...base, ...files, RUNNER_TEMP: dir, GITHUB_WORKSPACE: dir, ...env }, timeout: timeoutMs }));
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    code = typeof e.code === 'number' ? e.code : -1;
    stdout = e.stdout ?? '';
    stderr = e.stderr ?? '';
  }
  return {
    code, stdout, stderr, dir,
    outputs: parseRunnerFile(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
    env: parseRunnerFile(readFileSync(files.GITHUB_ENV, 'utf8')),
    summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
  };
}
