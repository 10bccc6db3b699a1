import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mergeScenarios, parseScenario, readScenarioFile, ScenarioError } from '../../src/scenarios/scenario.load.js';

const dir = fileURLToPath(new URL('../../scenarios/', import.meta.url));

function mistakesOf(text: string) {
  try {
    parseScenario(text, 'test.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    return (err as ScenarioError).mistakes;
  }
  throw new Error('expected a ScenarioError');
}

describe('scenario documents', () => {
  it('every ready scenario in scenarios/ is valid', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const f of files) expect(readScenarioFile(`${dir}${f}`).rules.length, f).toBeGreaterThan(0);
  });

  it('every example in docs/scenarios.md is valid (rule lists are checked as the rules of a scenario)', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/scenarios.md', import.meta.url)), 'utf8');
    const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    for (const block of blocks) {
      const firstLine = block.split('\n').find((line) => line.trim() && !line.startsWith('#'))!;
      const text = firstLine.startsWith('- ') ? `rules:\n${block.replace(/^/gm, '  ')}` : block;
      expect(() => parseScenario(text, 'docs/scenarios.md'), block).not.toThrow();
    }
  });

  it('reads YAML and JSON alike', () => {
    const yaml = parseScenario('rules:\n  - match: { all: true }\n    employee: { opens: 90m }\n');
    const json = parseScenario('{"rules":[{"match":{"all":true},"employee":{"opens":"90m"}}]}');
    expect(yaml).toEqual(json);
  });

  it('names the problem of text that is neither, and of repeated keys', () => {
    expect(mistakesOf('rules: [unclosed')[0]!.message).toMatch(/^not valid JSON or YAML/);
    expect(mistakesOf('rules: []\nrules: []\n')[0]!.message).toMatch(/^not valid JSON or YAML/);
  });

  it('lists every mistake with its path, and a hint where one helps', () => {
    const mistakes = mistakesOf(['rules:', '  - match: { all: true }', '    employee: { opens: tomorrow }', '    review: { approvals: { ceo: 1h } }', '    payroll: { error_code: Bad-Code }'].join('\n'));
    expect(mistakes.map((m) => m.path)).toEqual(expect.arrayContaining(['rules[0].employee.opens', 'rules[0].payroll.error_code', 'rules[0].review.approvals.ceo']));
    const delays = mistakesOf('rules:\n  - match: { all: true }\n    employee: { opens: tomorrow, signs: never }\n');
    expect(delays).toEqual([{ path: 'rules[0].employee.opens', message: '"tomorrow" is not a delay', hint: expect.stringContaining('"30m"') }]);
  });

  it('a message names the file', () => {
    try {
      readScenarioFile(`${dir}does-not-exist.yaml`);
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toContain('does-not-exist.yaml');
    }
  });

  it('several files merge into one scenario, rules in the order given', () => {
    const a = parseScenario('name: a\nrules: [{ match: { reference: "A*" } }]');
    const b = parseScenario('name: b\nrules: [{ match: { all: true } }]');
    const merged = mergeScenarios([a, b]);
    expect(merged.name).toBe('a + b');
    expect(merged.rules.map((r) => r.match)).toEqual([{ reference: 'A*' }, { all: true }]);
  });
});
