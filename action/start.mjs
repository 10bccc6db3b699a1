// The start half of the GitHub Action (action.yml): picks the image (a local one, else the
// registry's, else a build of the action's own checkout), runs it on 127.0.0.1, waits for its
// health endpoint, loads the scenario, and with a relay target runs the image's `listen` beside
// it. Inputs come as INPUT_* variables; results go to $GITHUB_OUTPUT and, for later steps and
// the report action, $GITHUB_ENV.
import { existsSync, readFileSync } from 'node:fs';
import { extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ActionError, LABEL, OWNER_KEY, WORKSPACE, call, callJson, docker, exportEnv, fail, input, lastDockerError, poll, setOutputs } from './lib.mjs';

const REGISTRY = 'ghcr.io/onboarding-emulator/onboarding-emulator';
// Not import.meta.dirname: the Node 18 some runner images still carry lacks it.
const actionPath = process.env.ACTION_PATH || fileURLToPath(new URL('..', import.meta.url));
const workspaceDir = process.env.GITHUB_WORKSPACE || process.cwd();

function integer(name, fallback, min, max) {
  const raw = input(name, String(fallback));
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ActionError(`input ${name}: ${JSON.stringify(raw)} is not a whole number from ${min} to ${max}`);
  return n;
}

/** The image to run and where it came from: present on the engine, pulled, or built from the checkout. */
function resolveImage() {
  const checkoutVersion = JSON.parse(readFileSync(join(actionPath, 'package.json'), 'utf8')).version;
  const image = input('image') || `${REGISTRY}:${input('version', checkoutVersion)}`;
  if (docker(['image', 'inspect', '--format', '{{.Id}}', image]) !== null) return { image, source: 'local' };
  console.log(`pulling ${image}`);
  if (docker(['pull', '--quiet', image], { timeoutMs: 5 * 60_000 }) !== null) return { image, source: 'pulled' };
  const tag = input('build-tag', `onboarding-emulator:${checkoutVersion}-action`);
  console.log(`::notice title=onboarding-emulator::${image} cannot be pulled (${lastDockerError.split('\n').at(-1)}); building ${tag} from the action's checkout`);
  if (!image.endsWith(`:${checkoutVersion}`)) console.log(`::warning title=onboarding-emulator::the build is the checkout's version ${checkoutVersion}, not ${image}`);
  if (docker(['build', '--quiet', '--tag', tag, actionPath], { timeoutMs: 20 * 60_000 }) === null) {
    throw new ActionError(`neither pulling ${image} nor building it from ${actionPath} worked: ${lastDockerError}`);
  }
  return { image: tag, source: 'built' };
}

/** A scenario file in the caller's checkout (loaded over the control API), or a ready scenario's name (given to the image). */
function resolveScenario() {
  const value = input('scenario');
  if (!value) return undefined;
  const file = isAbsolute(value) ? value : resolve(workspaceDir, value);
  if (existsSync(file)) return { file };
  if (/^[a-z0-9][a-z0-9-]*$/.test(value) && existsSync(join(actionPath, 'scenarios', `${value}.yaml`))) return { name: value };
  throw new ActionError(`input scenario: no file ${file}, and ${JSON.stringify(value)} is no ready scenario's name`);
}

/**
 * `docker create` and `docker start` rather than `docker run`: when the start fails (the port
 * is taken), the created container is known by its id and removed, not left behind.
 */
function run(args, what) {
  const id = docker(['create', '--label', LABEL, ...args]);
  if (id === null) throw new ActionError(`creating the container of ${what} failed: ${lastDockerError}`);
  if (docker(['start', id]) === null) {
    const why = lastDockerError;
    docker(['rm', '--force', id]);
    throw new ActionError(`starting ${what} failed: ${why}`);
  }
  return id;
}

async function waitHealthy(base, id, totalMs) {
  const began = Date.now();
  await poll(async () => {
    // A short timeout per try: before the container listens, the engine's port proxy may hold a
    // connection open without answering.
    const res = await call(`${base}/_emulator/health`, { timeoutMs: 1_000 }).catch(() => undefined);
    if (res?.status === 200) return true;
    // A container that stopped will never answer: say so at once, with the end of its log.
    if (docker(['inspect', '--format', '{{.State.Running}}', id]) !== 'true') {
      throw new ActionError(`the emulator's container stopped before it answered: ${docker(['logs', '--tail', '20', id]) ?? lastDockerError}`);
    }
    return undefined;
  }, { totalMs, what: `${base}/_emulator/health answering 200` });
  console.log(`healthy after ${Date.now() - began} ms`);
}

async function loadScenario(base, file) {
  const type = ['.yaml', '.yml'].includes(extname(file).toLowerCase()) ? 'application/yaml' : 'application/json';
  const state = await callJson(`${base}/_emulator/scenario`, { method: 'PUT', key: OWNER_KEY, type, body: readFileSync(file) });
  console.log(`scenario ${state.name ?? file} loaded`);
}

/** Registers the target as a webhook address and runs `listen` on the host network to post to it. */
async function startRelay(base, image, port, target, totalMs) {
  let url;
  try {
    url = new URL(target);
  } catch {
    throw new ActionError(`input relay-target: ${JSON.stringify(target)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ActionError(`input relay-target: ${target} is not http or https`);
  const hook = await callJson(`${base}/v1/webhooks`, {
    method: 'POST', key: OWNER_KEY, type: 'application/json',
    body: JSON.stringify({ url: target, description: 'relay target of the GitHub Action' }),
  });
  const id = run(['--network', 'host', image, 'listen', '--url', `http://127.0.0.1:${port}`, '--forward-to', target, '--key', OWNER_KEY], 'the relay');
  await poll(async () => {
    const relays = await callJson(`${base}/_emulator/relays`, { key: OWNER_KEY });
    if (relays.data.length > 0) return true;
    if (docker(['inspect', '--format', '{{.State.Running}}', id]) !== 'true') {
      throw new ActionError(`the relay's container stopped: ${docker(['logs', '--tail', '20', id]) ?? lastDockerError}`);
    }
    return undefined;
  }, { totalMs, what: 'the relay opening' });
  return { id, hook };
}

async function main() {
  const port = integer('port', 4010, 1, 65535);
  const totalMs = integer('health-timeout', 60, 1, 600) * 1000;
  const seed = input('seed');
  const scenario = resolveScenario();
  const { image, source } = resolveImage();
  const args = [];
  if (seed) args.push('--seed', seed);
  if (scenario?.name) args.push('--scenario', scenario.name);
  const id = run(['--publish', `127.0.0.1:${port}:4010`, image, ...args], 'the emulator');
  const base = `http://127.0.0.1:${port}`;
  // From here on the report action can stop what was started, even when a later step fails.
  const containers = [id];
  exportEnv({ ONBOARDING_EMULATOR_CONTAINERS: containers.join(' '), EMULATOR_URL: base, EMULATOR_KEY: OWNER_KEY });
  await waitHealthy(base, id, totalMs);
  if (scenario?.file) await loadScenario(base, scenario.file);
  const outputs = { 'base-url': base, key: OWNER_KEY, workspace: WORKSPACE, image, 'image-source': source, 'container-id': id };
  const target = input('relay-target');
  if (target) {
    const relay = await startRelay(base, image, port, target, totalMs);
    // The runner replaces a masked value with *** in every later log line of the job.
    console.log(`::add-mask::${relay.hook.secret}`);
    containers.unshift(relay.id);
    exportEnv({ ONBOARDING_EMULATOR_CONTAINERS: containers.join(' ') });
    Object.assign(outputs, { 'relay-container-id': relay.id, 'webhook-id': relay.hook.id, 'webhook-secret': relay.hook.secret });
  }
  setOutputs(outputs);
  console.log(`onboarding-emulator ${image} (${source}) at ${base}, key ${OWNER_KEY}`);
}

main().catch(fail);
