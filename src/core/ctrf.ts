import { EMULATOR_VERSION } from './product.js';
import type { TestCase, TestSuite } from './test-report.js';

/**
 * CTRF (Common Test Report Format), the JSON test report CI renderers read: the same suites of
 * cases as the JUnit writer (junit.ts), one `tests` entry per case with its suite path, and a
 * summary counting each status. A pending case stays `pending` (CTRF has the state JUnit lacks).
 * `start` and `stop` are given by the caller, from the clock the report was made on, so the
 * same run writes the same document.
 */

/** The CTRF specification version written, the current one of the reference package. */
const CTRF_SPEC_VERSION = '0.0.0';

type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

interface CtrfTest {
  name: string;
  status: CtrfStatus;
  /** Milliseconds it took (0 when not measured). */
  duration: number;
  message?: string;
  trace?: string;
  /** Its suite, then its group when it has one of its own. */
  suite: string[];
}

export interface CtrfReport {
  reportFormat: 'CTRF';
  specVersion: string;
  results: {
    tool: { name: string; version: string };
    summary: { tests: number; passed: number; failed: number; pending: number; skipped: number; other: number; start: number; stop: number };
    tests: CtrfTest[];
  };
}

/** A JUnit classname is dotted under its suite's name (`scenario.onboarding`): CTRF's suite path has the parts. */
function suitePath(suite: string, classname: string | undefined): string[] {
  if (classname === undefined || classname === suite) return [suite];
  return [suite, classname.startsWith(`${suite}.`) ? classname.slice(suite.length + 1) : classname];
}

function test(c: TestCase, suite: string): CtrfTest {
  return {
    name: c.name,
    status: c.outcome,
    duration: c.time === undefined ? 0 : Math.round(c.time * 1000),
    ...(c.outcome !== 'passed' && c.message !== undefined ? { message: c.message } : {}),
    ...(c.outcome === 'failed' && c.detail ? { trace: c.detail } : {}),
    suite: suitePath(suite, c.classname),
  };
}

/** The CTRF document for these suites; `start` and `stop` in epoch milliseconds. */
export function ctrfReport(suites: TestSuite[], span: { start: number; stop: number }): CtrfReport {
  const tests = suites.flatMap((s) => s.cases.map((c) => test(c, s.name)));
  const count = (status: CtrfStatus) => tests.filter((t) => t.status === status).length;
  return {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    results: {
      tool: { name: 'onboarding-emulator', version: EMULATOR_VERSION },
      summary: {
        tests: tests.length, passed: count('passed'), failed: count('failed'), pending: count('pending'),
        skipped: count('skipped'), other: count('other'), start: span.start, stop: span.stop,
      },
      tests,
    },
  };
}
