// What the action's two scripts share: inputs from INPUT_* variables, outputs and environment
// lines in the files the runner names, the Docker CLI and bounded HTTP calls. Node's own
// modules only: a runner has node and docker, and the action installs nothing.
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

/** The owner test key of the default fixtures (src/fixtures/well-known-keys.ts, `owner`). */
export const OWNER_KEY = 'hrs_test_acme_owner';
/** The workspace the image's fixtures seed and every well-known key belongs to. */
export const WORKSPACE = 'default';
/** Labels every container the action starts, so a leftover one can be found by hand. */
export const LABEL = 'onboarding-emulator.github-action=true';

/** An input as action.yml passes it: INPUT_<NAME> with dashes as underscores, trimmed; '' when unset. */
export function input(name, fallback = '') {
  const value = process.env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`];
  return value === undefined || value.trim() === '' ? fallback : value.trim();
}

/** A failure meant for the person reading the job log: printed as an annotation, exit 1. */
export class ActionError extends Error {}

export function fail(err) {
  const message = err instanceof ActionError ? err.message : String(err?.stack ?? err);
  process.stdout.write(`::error title=onboarding-emulator::${message.replace(/%/g, '%25').replace(/\r?\n/g, '%0A')}\n`);
  process.exitCode = 1;
}

/** `name<<DELIM` blocks, the form the runner reads for any value, multi-line ones included. */
function appendPairs(file, pairs) {
  if (!file) return;
  let text = '';
  for (const [name, value] of Object.entries(pairs)) {
    const delim = `EOF_${randomUUID()}`;
    text += `${name}<<${delim}\n${value}\n${delim}\n`;
  }
  appendFileSync(file, text);
}

export const setOutputs = (pairs) => appendPairs(process.env.GITHUB_OUTPUT, pairs);
/** Variables for the job's later steps: the report action and the partner's own tests read them. */
export const exportEnv = (pairs) => appendPairs(process.env.GITHUB_ENV, pairs);
export const appendSummary = (markdown) => process.env.GITHUB_STEP_SUMMARY && appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown);

/** `docker ARGS`: its trimmed stdout, or null when it exits non-zero (its stderr is kept in `lastDockerError`). */
export let lastDockerError = '';
export function docker(args, { timeoutMs = 60_000, inherit = false } = {}) {
  try {
    const out = execFileSync('docker', args, { encoding: 'utf8', timeout: timeoutMs, stdio: ['ignore', inherit ? 'inherit' : 'pipe', 'pipe'], maxBuffer: 16 * 1024 * 1024 });
    return (out ?? '').trim();
  } catch (err) {
    lastDockerError = String(err.stderr || err.message).trim().split('\n').slice(-5).join('\n');
    return null;
  }
}

/** One HTTP call with a deadline; the answer's status and body as text. */
export async function call(url, { method = 'GET', key, body, type, timeoutMs = 10_000 } = {}) {
  const headers = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (type) headers['Content-Type'] = type;
  // A timer of our own rather than AbortSignal.timeout(): that one does not keep the process
  // alive, and a connection the engine's port proxy accepts before the container listens
  // holds nothing else that does, so Node would exit in the middle of the wait.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const res = await fetch(url, { method, headers, body, signal: abort.signal });
    return { status: res.status, text: await res.text() };
  } finally {
    clearTimeout(timer);
  }
}

/** Like call(), but a non-2xx answer is an ActionError naming the request and the API's message. */
export async function callJson(url, options = {}) {
  const { status, text } = await call(url, options);
  if (status < 200 || status > 299) {
    let detail = text.slice(0, 500);
    try {
      const e = JSON.parse(text).error;
      if (e?.message) detail = `${e.code}: ${e.message}`;
      // A refused scenario names each mistake in details: the first few are what to fix.
      for (const d of (e?.details ?? []).slice(0, 5)) detail += `\n  ${d.path}: ${d.message}${d.hint ? ` (${d.hint})` : ''}`;
    } catch {
      // Not JSON: the first bytes as they came.
    }
    throw new ActionError(`${options.method ?? 'GET'} ${url} answered ${status}: ${detail}`);
  }
  return JSON.parse(text);
}

/** Calls `check` every `everyMs` until it returns a value other than undefined, for at most `totalMs`. */
export async function poll(check, { totalMs, everyMs = 250, what }) {
  const deadline = Date.now() + totalMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() + everyMs > deadline) throw new ActionError(`${what}: not within ${Math.round(totalMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
