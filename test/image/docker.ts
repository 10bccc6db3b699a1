import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { until } from '../support/wait.js';

/**
 * The Docker CLI for the image suite: containers started here carry one label and publish
 * their port on 127.0.0.1 only (a free port the engine picks), and `removeContainers()` takes
 * every one of them away, however a test ended.
 */
const run = promisify(execFile);
export const IMAGE = process.env.IMAGE_UNDER_TEST ?? 'onboarding-emulator:test';
/** One label per image under test, so two suites on one engine never remove each other's containers. */
export const LABEL = `onboarding-emulator.image-suite=${IMAGE.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** `docker ARGS...`; never throws for a non-zero exit (the caller reads `code`). */
export async function docker(args: string[], timeoutMs = 60_000): Promise<Result> {
  try {
    const { stdout, stderr } = await run('docker', args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; message: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message };
  }
}

/** Like docker(), but a non-zero exit is an error naming the command and its stderr. */
export async function must(args: string[], timeoutMs?: number): Promise<string> {
  const r = await docker(args, timeoutMs);
  if (r.code !== 0) throw new Error(`docker ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

export interface Container {
  id: string;
  /** `http://127.0.0.1:<published port>` */
  base: string;
  /** Milliseconds from `docker run` to the container's start (the run command returning). */
  startedAfterMs: number;
}

export interface StartOptions {
  /** Options for `docker run` before the image name (`-e`, `-v`, `--memory`, ...). */
  docker?: string[];
  /** Arguments after the image name. */
  args?: string[];
  /** The port inside the container to publish (default 4010). */
  port?: number;
}

/** `docker run -d` with the label, the port published on 127.0.0.1 at a free host port. */
export async function start(options: StartOptions = {}): Promise<Container> {
  const port = options.port ?? 4010;
  const began = performance.now();
  const id = await must(['run', '-d', '--label', LABEL, '-p', `127.0.0.1::${port}`, ...(options.docker ?? []), IMAGE, ...(options.args ?? [])]);
  const startedAfterMs = performance.now() - began;
  const mapped = await must(['port', id, `${port}/tcp`]);
  const hostPort = mapped.split('\n').map((l) => l.trim()).find((l) => l.startsWith('127.0.0.1:'))?.split(':')[1];
  if (!hostPort) throw new Error(`no 127.0.0.1 port for ${id}: ${mapped}`);
  return { id, base: `http://127.0.0.1:${hostPort}`, startedAfterMs };
}

/** Polls `url` until it answers `status`, for at most `ms`; the milliseconds it took. */
export async function waitForStatus(url: string, status = 200, ms = 15_000, headers: Record<string, string> = {}): Promise<number> {
  const began = performance.now();
  let last = 'no answer';
  const answers = async () => {
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.status === status) return true;
      last = `status ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    return false;
  };
  await until(answers, `${url} to answer ${status}`, ms).catch(() => {
    throw new Error(`${url} did not answer ${status} within ${ms} ms (last: ${last})`);
  });
  return performance.now() - began;
}

/** The container's health status as the engine reports it. */
async function health(id: string): Promise<string> {
  return must(['inspect', '-f', '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}', id]);
}

/** Waits until the engine calls the container healthy; the milliseconds it took from `since`. */
export async function waitHealthy(id: string, since: number, ms = 20_000): Promise<number> {
  let status = 'unknown';
  const healthy = async () => {
    status = await health(id);
    if (status === 'unhealthy') throw new Error(`${id} became unhealthy: ${await must(['inspect', '-f', '{{json .State.Health.Log}}', id])}`);
    return status === 'healthy';
  };
  await until(healthy, `${id} to be healthy`, ms).catch((err: Error) => {
    throw status === 'unhealthy' ? err : new Error(`${id} not healthy within ${ms} ms (status ${status})`);
  });
  return performance.now() - since;
}

/** One run of the image's HEALTHCHECK as the engine logs it (it keeps the last five). */
export interface Probe {
  Start: string;
  ExitCode: number;
}

const probes = async (id: string): Promise<Probe[]> => JSON.parse(await inspect(id, '{{json .State.Health.Log}}')) as Probe[];

/** Waits until the engine has run `count` more health probes than it had when called; its log of probes then. */
export async function moreProbes(id: string, count: number, ms = 15_000): Promise<Probe[]> {
  const after = Math.max(...(await probes(id)).map((p) => Date.parse(p.Start)), 0);
  let log: Probe[] = [];
  await until(async () => (log = await probes(id)).filter((p) => Date.parse(p.Start) > after).length >= count, `${count} more health probes of ${id}`, ms);
  return log;
}

export async function logs(id: string): Promise<string> {
  const r = await docker(['logs', id]);
  return r.stdout + r.stderr;
}

/** `docker inspect -f FORMAT id`. */
export const inspect = (id: string, format: string): Promise<string> => must(['inspect', '-f', format, id]);

/** Every container this suite started, stopped at once and removed with its anonymous volumes. */
export async function removeContainers(): Promise<void> {
  const ids = (await must(['ps', '-aq', '--filter', `label=${LABEL}`])).split('\n').filter(Boolean);
  if (ids.length) await docker(['rm', '-f', '-v', ...ids]);
}

/** A named volume for one test, removed by removeVolumes(). */
export async function volume(name: string): Promise<string> {
  const full = `oe-image-suite-${name}-${process.pid}`;
  await must(['volume', 'create', '--label', LABEL, full]);
  return full;
}

export async function removeVolumes(): Promise<void> {
  const names = (await must(['volume', 'ls', '-q', '--filter', `label=${LABEL}`])).split('\n').filter(Boolean);
  if (names.length) await docker(['volume', 'rm', '-f', ...names]);
}

/** `docker run --rm IMAGE ARGS` in the foreground: its exit code and output. */
export function runOnce(args: string[], dockerArgs: string[] = [], timeoutMs = 60_000): Promise<Result> {
  return docker(['run', '--rm', '--label', LABEL, ...dockerArgs, IMAGE, ...args], timeoutMs);
}
