import type { TestCase, TestSuite } from './test-report.js';

/**
 * JUnit XML, the report format CI systems read: one `<testsuites>` with a `<testsuite>` per
 * group and a `<testcase>` per check, a failed check carrying `<failure>`, a skipped or pending
 * one `<skipped>`. Written by the receiver check and the scenario report alike (CTRF beside it:
 * ctrf.ts, from the same cases).
 */

/** Text made safe for XML: the five entities, and the control characters XML 1.0 forbids dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attrs = (pairs: Record<string, string | number | undefined>): string =>
  Object.entries(pairs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

const seconds = (cases: TestCase[]): number | undefined =>
  cases.some((c) => c.time !== undefined) ? Number(cases.reduce((t, c) => t + (c.time ?? 0), 0).toFixed(3)) : undefined;

const failures = (cases: TestCase[]): number => cases.filter((c) => c.outcome === 'failed').length;
const skips = (cases: TestCase[]): number => cases.filter((c) => c.outcome === 'skipped' || c.outcome === 'pending').length;

function testcase(c: TestCase, suite: string): string {
  const open = `    <testcase${attrs({ name: c.name, classname: c.classname ?? suite, time: c.time === undefined ? undefined : Number(c.time.toFixed(3)) })}`;
  if (c.outcome === 'passed') return `${open}/>`;
  const tag = c.outcome === 'failed' ? 'failure' : 'skipped';
  const body = c.detail ? `>${xmlEscape(c.detail)}</${tag}>` : '/>';
  return `${open}>\n      <${tag}${attrs({ message: c.message ?? '', ...(c.outcome === 'failed' ? { type: 'AssertionError' } : {}) })}${body}\n    </testcase>`;
}

/** The XML document for these suites (UTF-8, ending with a newline). */
export function junitXml(suites: TestSuite[], name = 'onboarding-emulator'): string {
  const all = suites.flatMap((s) => s.cases);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name, tests: all.length, failures: failures(all), errors: 0, skipped: skips(all), time: seconds(all) })}>`,
  ];
  for (const s of suites) {
    lines.push(`  <testsuite${attrs({
      name: s.name, tests: s.cases.length, failures: failures(s.cases), errors: 0, skipped: skips(s.cases), timestamp: s.timestamp, time: seconds(s.cases),
    })}>`);
    for (const c of s.cases) lines.push(testcase(c, s.name));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
