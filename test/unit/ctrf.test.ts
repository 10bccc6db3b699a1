import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { schema, validate } from 'ctrf';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { ctrfReport } from '../../src/core/ctrf.js';
import { junitXml } from '../../src/core/junit.js';
import type { TestCase } from '../../src/core/test-report.js';
import { expectationsCtrf, finalReport, type ExpectationReport } from '../../src/scenarios/scenario.expect.js';

/**
 * The CTRF writer, for any cases: the reference package accepts what it writes, its summary
 * counts exactly the statuses of its tests, and it agrees with the JUnit writer on the same cases.
 */

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
/**
 * The reference package's own schema, compiled once: its validate() compiles it on every call
 * (over 100 ms), too slow for hundreds of runs. validate() itself checks a sample below.
 */
const schemaCheck = (() => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const check = ajv.compile(schema);
  return (doc: unknown) => (check(doc) ? [] : check.errors);
})();

const text = fc.string({ maxLength: 20 });
/** Names are never empty: an expectation's and a scenario's by their schemas, a check's by the list of checks. */
const name = fc.string({ minLength: 1, maxLength: 20 });
const testCase: fc.Arbitrary<TestCase> = fc.record(
  {
    name,
    classname: text,
    outcome: fc.constantFrom('passed', 'failed', 'skipped', 'pending'),
    message: text,
    detail: text,
    time: fc.double({ min: 0, max: 60, noNaN: true }),
  },
  { requiredKeys: ['name', 'outcome'] },
);
const suites = fc.array(fc.record({ name, cases: fc.array(testCase, { maxLength: 12 }) }), { maxLength: 4 });
const span = fc.tuple(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 1e9 })).map(([start, long]) => ({ start, stop: start + long }));

const STATUSES = ['passed', 'failed', 'pending', 'skipped', 'other'] as const;
const tally = (statuses: readonly string[]) => Object.fromEntries(STATUSES.map((s) => [s, statuses.filter((x) => x === s).length]));
const junitCounts = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml).testsuites as { tests: string; failures: string; skipped: string };

describe('ctrfReport', () => {
  it('writes a report the reference package accepts, its summary counting the statuses of its tests', () => {
    fc.assert(fc.property(suites, span, (s, when) => {
      const doc = ctrfReport(s, when);
      expect(schemaCheck(doc)).toEqual([]);
      const statuses = doc.results.tests.map((t) => t.status);
      expect(doc.results.summary).toEqual({ tests: statuses.length, ...tally(statuses), start: when.start, stop: when.stop });
      // Case for case, in order, each outcome its status (pending stays pending).
      expect(statuses).toEqual(s.flatMap((suite) => suite.cases.map((c) => c.outcome)));
      // JUnit, from the same cases, counts the same failures and writes pending as skipped.
      const junit = junitCounts(junitXml(s));
      expect(Number(junit.tests)).toBe(doc.results.summary.tests);
      expect(Number(junit.failures)).toBe(doc.results.summary.failed);
      expect(Number(junit.skipped)).toBe(doc.results.summary.skipped + doc.results.summary.pending);
    }), { numRuns: 300 });
    for (const sample of fc.sample(fc.tuple(suites, span), { numRuns: 5, seed: 1 })) expect(validate(ctrfReport(...sample)).errors).toEqual([]);
  });

  it('gives a failure its message and detail as trace, a case its duration in whole milliseconds and its suite path', () => {
    const doc = ctrfReport([{ name: 'run', cases: [
      { name: 'a', outcome: 'failed', message: 'answered 200', detail: 'sent: x\nanswer: 200', time: 0.0126 },
      { name: 'b', classname: 'run.after', outcome: 'pending', message: 'due at noon', detail: 'onb_1 pending: due' },
      { name: 'c', classname: 'other', outcome: 'passed', message: 'ignored' },
    ] }], { start: 1, stop: 2 });
    expect(doc.results.tests).toEqual([
      { name: 'a', status: 'failed', duration: 13, message: 'answered 200', trace: 'sent: x\nanswer: 200', suite: ['run'] },
      { name: 'b', status: 'pending', duration: 0, message: 'due at noon', suite: ['run', 'after'] },
      { name: 'c', status: 'passed', duration: 0, suite: ['run', 'other'] },
    ]);
  });
});

describe('expectationsCtrf', () => {
  const kinds = ['onboarding', 'delivered', 'never', 'after'] as const;
  const report: fc.Arbitrary<ExpectationReport> = fc.record({
    scenario: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: null }),
    now: fc.integer({ min: 0, max: 4e12 }).map((ms) => new Date(ms).toISOString()),
    expectations: fc.array(fc.record({
      name,
      kind: fc.constantFrom(...kinds),
      status: fc.constantFrom('passed', 'failed', 'pending'),
      reason: text,
      details: fc.array(fc.record({ subject: text, status: fc.constantFrom('passed', 'failed', 'pending'), due_at: fc.constant(null), seen_at: fc.constant(null), reason: text }), { maxLength: 3 }),
    }), { maxLength: 20 }),
  }).map(({ scenario, now, expectations }) => {
    const count = (s: string) => expectations.filter((e) => e.status === s).length;
    return { scenario, now, final: false, passed: count('passed'), failed: count('failed'), pending: count('pending'), expectations } as ExpectationReport;
  });

  it('counts what the report counts, pending as pending (failed once final), stamped at the report\'s now', () => {
    fc.assert(fc.property(report, (r) => {
      for (const one of [r, finalReport(r)]) {
        const doc = expectationsCtrf(one);
        expect(schemaCheck(doc)).toEqual([]);
        expect(doc.results.summary).toEqual({
          tests: one.expectations.length, passed: one.passed, failed: one.failed, pending: one.pending, skipped: 0, other: 0,
          start: Date.parse(one.now), stop: Date.parse(one.now),
        });
        expect(doc.results.tests.map((t) => t.status)).toEqual(one.expectations.map((e) => e.status));
      }
    }), { numRuns: 300 });
  });
});
