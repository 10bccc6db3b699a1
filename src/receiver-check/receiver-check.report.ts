import { ctrfReport, type CtrfReport } from '../core/ctrf.js';
import { junitXml } from '../core/junit.js';
import type { TestSuite } from '../core/test-report.js';
import type { ReceiverCheckReport } from './receiver-check.js';

/** The receiver check's report as a CI system reads it: JUnit XML or CTRF, one test per check. */
/** One test case per check; a warning passes (it fails no run), its reason kept in the case's name. */
function checkSuite(report: ReceiverCheckReport): TestSuite {
  return {
    name: 'receiver-check',
    timestamp: report.started_at,
    cases: report.checks.map((c) => ({
      name: `${c.id} ${c.name}${c.grade === 'warning' ? ' (warning)' : ''}`,
      classname: 'receiver-check',
      outcome: c.grade === 'failed' ? 'failed' : c.grade === 'skipped' ? 'skipped' : 'passed',
      ...(c.grade === 'failed' || c.grade === 'skipped' ? { message: c.reason } : {}),
      ...(c.grade === 'failed' ? { detail: `${c.title}\nstatus: ${c.status ?? 'no answer'}\nms: ${c.ms ?? '-'}` } : {}),
      ...(c.ms !== null ? { time: c.ms / 1000 } : {}),
    })),
  };
}

export const receiverCheckJunit = (report: ReceiverCheckReport): string => junitXml([checkSuite(report)]);
/** The run's own span: when it started, and how long it took. */
export const receiverCheckCtrf = (report: ReceiverCheckReport): CtrfReport => {
  const start = Date.parse(report.started_at);
  return ctrfReport([checkSuite(report)], { start, stop: start + report.duration_ms });
};

