import { wallClockMs } from '../core/clock.js';
import { ctrfReport, type CtrfReport } from '../core/ctrf.js';
import { maskJson } from '../core/mask.js';
import { junitXml } from '../core/junit.js';
import type { TestCase, TestSuite } from '../core/test-report.js';
import { coverageOf, type Coverage } from './coverage.js';
import type { Flow } from './corpus.js';
import { isEmulator, replayFlow, type FlowResult, type ParityTarget, type ReplayOptions } from './replay.js';

/**
 * A corpus replayed against one target: each flow in turn (a flow's steps depend on each
 * other; flows do not, but one at a time keeps a real sandbox's rate limit out of the way), the
 * verdicts counted, and the coverage index of the corpus. `ok` only when nothing drifted.
 */
export interface ParityReport {
  object: 'parity_report';
  target: string;
  /** When the run started and ended (ISO 8601, the wall clock of the machine that ran it). */
  started_at: string;
  finished_at: string;
  flows: FlowResult[];
  counts: { flows: number; steps: number; match: number; drift: number; unchecked: number };
  coverage: Coverage;
  ok: boolean;
}

export async function runParity(flows: readonly Flow[], target: ParityTarget, operations: readonly string[], options: ReplayOptions = {}): Promise<ParityReport> {
  const started = wallClockMs();
  const results: FlowResult[] = [];
  const settings = { ...options, emulator: options.emulator ?? (await isEmulator(target, options.stepTimeoutMs)) };
  for (const flow of flows) results.push(await replayFlow(flow, target, settings));
  const steps = results.flatMap((f) => f.steps);
  const count = (kind: string) => steps.filter((s) => s.verdict.kind === kind).length;
  const counts = { flows: results.length, steps: steps.length, match: count('match'), drift: count('drift'), unchecked: count('unchecked') };
  // A drift shows the values it found: a key or secret among them is masked, as in every output.
  return maskJson({
    object: 'parity_report' as const,
    target: target.url,
    started_at: new Date(started).toISOString(),
    finished_at: new Date(wallClockMs()).toISOString(),
    flows: results,
    counts,
    coverage: coverageOf(flows, operations),
    ok: counts.drift === 0,
  });
}

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function suites(report: ParityReport): TestSuite[] {
  return report.flows.map((flow) => ({
    name: flow.flow,
    timestamp: report.started_at,
    cases: flow.steps.map((s): TestCase => {
      const base = { name: `${s.name}: ${s.request}`, classname: flow.flow, time: s.ms / 1000 };
      if (s.verdict.kind === 'match') return { ...base, outcome: 'passed' };
      if (s.verdict.kind === 'unchecked') return { ...base, outcome: 'skipped', message: `could not check: ${s.verdict.why}` };
      return {
        ...base,
        outcome: 'failed',
        message: s.verdict.drifts.map((d) => `${d.path}: ${d.why}`).join('; '),
        detail: s.verdict.drifts.map((d) => `${d.path}: recorded ${show(d.recorded)}, now ${show(d.actual)} (${d.why})`).join('\n'),
      };
    }),
  }));
}

export const parityJunit = (report: ParityReport): string => junitXml(suites(report), 'onboarding-emulator parity');
export const parityCtrf = (report: ParityReport): CtrfReport => ctrfReport(suites(report), { start: Date.parse(report.started_at), stop: Date.parse(report.finished_at) });

/** The readable summary: a line a flow, each drift and unchecked step under it, then the counts and the coverage. */
export function paritySummary(report: ParityReport): string {
  const lines: string[] = [`parity against ${report.target}`];
  for (const flow of report.flows) {
    const drift = flow.steps.filter((s) => s.verdict.kind === 'drift').length;
    const unchecked = flow.steps.filter((s) => s.verdict.kind === 'unchecked').length;
    lines.push(`${drift ? 'DRIFT' : unchecked ? 'PART ' : 'ok   '} ${flow.flow} (${flow.steps.length} steps${drift ? `, ${drift} drifted` : ''}${unchecked ? `, ${unchecked} not checked` : ''})`);
    for (const s of flow.steps) {
      if (s.verdict.kind === 'drift') for (const d of s.verdict.drifts) lines.push(`      ${s.name} ${s.request}: ${d.path}: recorded ${show(d.recorded)}, now ${show(d.actual)} (${d.why})`);
      if (s.verdict.kind === 'unchecked') lines.push(`      ${s.name} ${s.request}: could not check: ${s.verdict.why}`);
    }
  }
  const { counts, coverage } = report;
  lines.push(
    '',
    `${counts.flows} flows, ${counts.steps} steps: ${counts.match} match, ${counts.drift} drift, ${counts.unchecked} could not be checked`,
    `coverage: endpoints ${coverage.endpoints.covered.length}/${coverage.endpoints.covered.length + coverage.endpoints.missing.length} (${coverage.endpoints.percent}%), event types ${coverage.event_types.covered.length}/${coverage.event_types.covered.length + coverage.event_types.missing.length} (${coverage.event_types.percent}%), error codes the spec names ${coverage.error_codes.covered.length}/${coverage.error_codes.covered.length + coverage.error_codes.missing.length} (${coverage.error_codes.percent}%), other error codes ${coverage.other_error_codes.length}`,
  );
  for (const [name, s] of [['endpoints', coverage.endpoints], ['event types', coverage.event_types], ['error codes', coverage.error_codes]] as const) {
    if (s.missing.length) lines.push(`  not covered, ${name}: ${s.missing.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
