import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScenario, readScenarioFile, readyScenarioNames } from '../../src/scenarios/scenario.load.js';
import { scenarioWarnings } from '../../src/scenarios/scenario.warnings.js';

/** What a valid scenario has that can do nothing as written: reported, never refused. */
const warningsOf = (yaml: string) => scenarioWarnings(parseScenario(yaml));
const rules = (...lines: string[]) => `rules:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;

describe('scenario warnings', () => {
  it('the example of docs/scenarios.md gives the warnings shown there', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/scenarios.md', import.meta.url)), 'utf8');
    const example = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.startsWith('name: slips'))!;
    const answer = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as { name?: string; warnings?: unknown }).find((b) => b.name === 'slips')!;
    expect(answer.warnings).toEqual(warningsOf(example));
  });

  it('the ready scenarios have none', () => {
    for (const name of readyScenarioNames()) expect(scenarioWarnings(readScenarioFile(name)), name).toEqual([]);
  });

  it('no rules at all', () => {
    expect(warningsOf('rules: []')).toEqual([{ path: 'rules', message: 'there are no rules: nothing is driven but the onboardings of magic e-mail addresses' }]);
  });

  it('a rule below one that matches everything it matches: a catch-all, the same conditions, or fewer of them', () => {
    const shadowed = (i: number, by: number) => ({ path: `rules[${i}]`, message: `never drives an onboarding: rules[${by}] matches every onboarding this rule matches, and the first rule that matches wins` });
    expect(warningsOf(rules('- match: { all: true }', '- match: { reference: "A*" }'))).toEqual([shadowed(1, 0)]);
    expect(warningsOf(rules(
      '- match: { email: "*@slow.example" }',
      '- match: { email: "*@SLOW.example", template: tpl_x }', // patterns ignore case
      '- match: { metadata: { team: blue } }',
      '- match: { metadata: { team: blue, senior: true } }',
      '- match: { metadata: { team: red } }',
      '- match: { template: tpl_y }',
    ))).toEqual([shadowed(1, 0), shadowed(3, 2)]);
    // Narrower first, then wider: each can drive something.
    expect(warningsOf(rules('- match: { reference: "A*", template: tpl_x }', '- match: { reference: "A*" }', '- match: { all: true }'))).toEqual([]);
  });

  it('steps scripted after a step written as never, once per rule at the never', () => {
    expect(warningsOf(rules('- match: { all: true }', '  employee: { opens: never, submits: 1h }'))).toEqual([
      { path: 'rules[0].employee.opens', message: 'is never, so what is scripted after it (employee.submits) plays only if something else takes this step; leave it out instead of never if your test takes it' },
    ]);
    const [w] = warningsOf(rules(
      '- match: { all: true }',
      '  employee: { opens: 1h, submits: 30m, signs: 2h }',
      '  review: { identity_check: 15m, approvals: never, terms_change: { when: after_approval, after: 1h, terms: { position: Cook } } }',
      '  contract: { sent: 10m, employer_signs: never }',
      '  payroll: { after: 5m }',
    ));
    expect(w).toEqual({ path: 'rules[0].review.approvals', message: expect.stringContaining('(review.terms_change.after, contract.sent, employee.signs, payroll.after)') });
    // The manager's correction is a step only when the data goes back to the manager.
    expect(warningsOf(rules('- match: { all: true }', '  review: { identity_check: 1h, corrections: { to: manager, after: 1h }, manager_corrects: never, approvals: 1h }'))).toEqual([
      { path: 'rules[0].review.manager_corrects', message: expect.stringContaining('(review.approvals)') },
    ]);
  });

  it('a step left out, a never with nothing after it, and per-role approvals are not warned about', () => {
    expect(warningsOf(rules('- match: { all: true }', '  employee: { submits: 1h, signs: 1h }', '  contract: { employer_signs: 1d }'))).toEqual([]);
    expect(warningsOf(rules('- match: { all: true }', '  employee: { opens: 2h, submits: never }', '  contract: { sent: never }'))).toEqual([]);
    // Which roles a template requires is not known here: a role that is never may not be asked.
    expect(warningsOf(rules('- match: { all: true }', '  review: { approvals: { manager: 1h, owner: never } }', '  contract: { sent: 1h }'))).toEqual([]);
  });

  it('an error code without outcome: failure', () => {
    expect(warningsOf(rules('- match: { reference: X }', '  payroll: { outcome: failure, error_code: bsn_invalid }', '- match: { all: true }', '  payroll: { outcome: success, error_code: bsn_invalid }'))).toEqual([
      { path: 'rules[1].payroll.error_code', message: 'is used only with outcome: failure; another failure (the payroll_failure switch, a payroll_down fault) has its own code' },
    ]);
  });
});
