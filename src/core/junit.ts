/**
 * JUnit XML, the report format CI systems read: one `<testsuites>` with a `<testsuite>` per
 * group and a `<testcase>` per check, a failed check carrying `<failure>`, a pending one
 * `<skipped>`. Written by the receiver check and the scenario report alike.
 */
export interface JunitCase {
  name: string;
  /** The group it belongs to (the suite's name unless told otherwise). */
  classname?: string;
  outcome: 'passed' | 'failed' | 'skipped';
  /** Why it failed or was skipped; shown as the failure's message. */
  message?: string;
  /** Longer text for the failure's body (what was sent, what came back). */
  detail?: string;
  /** Seconds it took, when measured. */
  time?: number;
}

export interface JunitSuite {
  name: string;
  /** An ISO instant the run started. */
  timestamp?: string;
  cases: JunitCase[];
}

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

const seconds = (cases: JunitCase[]): number | undefined =>
  cases.some((c) => c.time !== undefined) ? Number(cases.reduce((t, c) => t + (c.time ?? 0), 0).toFixed(3)) : undefined;

function testcase(c: JunitCase, suite: string): string {
  const open = `    <testcase${attrs({ name: c.name, classname: c.classname ?? suite, time: c.time === undefined ? undefined : Number(c.time.toFixed(3)) })}`;
  if (c.outcome === 'passed') return `${open}/>`;
  const tag = c.outcome === 'failed' ? 'failure' : 'skipped';
  const body = c.detail ? `>${xmlEscape(c.detail)}</${tag}>` : '/>';
  return `${open}>\n      <${tag}${attrs({ message: c.message ?? '', ...(c.outcome === 'failed' ? { type: 'AssertionError' } : {}) })}${body}\n    </testcase>`;
}

/** The XML document for these suites (UTF-8, ending with a newline). */
export function junitXml(suites: JunitSuite[], name = 'onboarding-emulator'): string {
  const count = (outcome: JunitCase['outcome']) => suites.reduce((n, s) => n + s.cases.filter((c) => c.outcome === outcome).length, 0);
  const all = suites.flatMap((s) => s.cases);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name, tests: all.length, failures: count('failed'), errors: 0, skipped: count('skipped'), time: seconds(all) })}>`,
  ];
  for (const s of suites) {
    lines.push(`  <testsuite${attrs({
      name: s.name, tests: s.cases.length, failures: s.cases.filter((c) => c.outcome === 'failed').length, errors: 0,
      skipped: s.cases.filter((c) => c.outcome === 'skipped').length, timestamp: s.timestamp, time: seconds(s.cases),
    })}>`);
    for (const c of s.cases) lines.push(testcase(c, s.name));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
