import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { junitXml, xmlEscape } from '../../src/core/junit.js';

/** The JUnit writer, read back by an XML parser as a CI system would read it. */
const read = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(xml);

describe('junitXml', () => {
  it('writes suites, cases and their outcomes with the counts CI readers total', () => {
    const xml = junitXml([
      { name: 'receiver', timestamp: '2026-10-05T09:00:00.000Z', cases: [
        { name: 'valid message', outcome: 'passed', time: 0.0123 },
        { name: 'bad signature <refused>', outcome: 'failed', message: 'answered 200 & "ok"', detail: 'sent: t=1,v1=00\nanswer: 200', time: 0.02 },
        { name: 'burst', outcome: 'skipped', message: 'not asked for' },
      ] },
      { name: 'expectations', cases: [{ name: 'completed by 2d', classname: 'rules[0]', outcome: 'passed' }] },
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const doc = read(xml);
    expect(doc.testsuites).toMatchObject({ name: 'onboarding-emulator', tests: '4', failures: '1', errors: '0', skipped: '1' });
    const [receiver, expectations] = doc.testsuites.testsuite;
    expect(receiver).toMatchObject({ name: 'receiver', tests: '3', failures: '1', skipped: '1', timestamp: '2026-10-05T09:00:00.000Z', time: '0.032' });
    expect(receiver.testcase[0]).toMatchObject({ name: 'valid message', classname: 'receiver', time: '0.012' });
    expect(receiver.testcase[1].name).toBe('bad signature <refused>');
    expect(receiver.testcase[1].failure).toMatchObject({ message: 'answered 200 & "ok"', type: 'AssertionError', '#text': 'sent: t=1,v1=00\nanswer: 200' });
    expect(receiver.testcase[2].skipped).toMatchObject({ message: 'not asked for' });
    expect(expectations.testcase[0]).toMatchObject({ name: 'completed by 2d', classname: 'rules[0]' });
    expect(expectations.time).toBeUndefined();
  });

  it('escapes markup and drops the control characters XML cannot hold', () => {
    expect(xmlEscape(`a<b>&"c"'\u0001\u0007d\n`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d\n');
    const doc = read(junitXml([{ name: 'x', cases: [{ name: '\u0000</testcase>', outcome: 'failed', message: ']]>' }] }]));
    expect(doc.testsuites.testsuite[0].testcase[0]).toMatchObject({ name: '</testcase>', failure: { message: ']]>' } });
  });
});
