import { afterEach, describe, expect, it } from 'vitest';
import type { InProcessEmulator } from '../../src/index.js';
import { reportedRun } from '../support/report-scenarios.js';

/** scenario.report() of createEmulator(): the same report as GET /_emulator/scenario/report, on the emulator and on workspace handles. */
const started: InProcessEmulator[] = [];

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});


describe('scenario.report() in process', () => {
  it('works the expectations out against the in-process clock, as the HTTP route does', async () => {
    const { em, url, id } = await reportedRun(started, 'report-1');
    expect(await em.scenario.report()).toMatchObject({ scenario: 'reported', final: false, passed: 0, failed: 0, pending: 2 });
    // The verdict at the end of a run, as ?final=true gives it: what is pending failed.
    const final = await em.scenario.report(true);
    expect(final).toMatchObject({ final: true, passed: 0, failed: 2, pending: 0 });
    for (const e of final.expectations) expect(e.reason).toMatch(/^not reached by the end of the run: 1 of 1 onboarding\(s\) pending: /);
    expect(await (await fetch(`${url}/_emulator/scenario/report?final=true`)).json()).toEqual(final);

    await em.clock.advance('3h');
    const report = await em.scenario.report();
    expect(report).toMatchObject({ now: '2026-10-05T12:00:00.000Z', passed: 1, failed: 1, pending: 0 });
    expect(report.expectations.map((e) => [e.name, e.status, e.reason])).toEqual([
      ['in review within 2h', 'passed', `all 1 onboarding(s) passed: ${id}: reached in_review at 2026-10-05T10:30:00.000Z, 1h 30m after its creation`],
      ['contract within 2h', 'failed', `1 of 1 onboarding(s) failed: ${id}: not contract_ready by 2026-10-05T11:00:00.000Z; it is in_review`],
    ]);
    expect(await (await fetch(`${url}/_emulator/scenario/report`)).json()).toEqual(report);

    // A new workspace has no scenario: nothing to report.
    const ws = await em.workspace.create();
    expect(await ws.handle.scenario.report()).toMatchObject({ scenario: null, expectations: [] });
  });
});
