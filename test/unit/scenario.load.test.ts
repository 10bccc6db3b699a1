import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mergeScenarios, parseScenario, readScenarioFile, readyScenarioNames, ScenarioError, ScenarioFileError } from '../../src/scenarios/scenario.load.js';
import { Match } from '../../src/scenarios/scenario.schemas.js';

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
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const rules = blocks.flatMap((block) => {
      const firstLine = block.split('\n').find((line) => line.trim() && !line.startsWith('#'))!;
      const text = firstLine.startsWith('- ') ? `rules:\n${block.replace(/^/gm, '  ')}` : block;
      expect(() => parseScenario(text, 'docs/scenarios.md'), block).not.toThrow();
      return parseScenario(text, 'docs/scenarios.md').rules;
    });
    // A worked example for every way to select onboardings and for both kinds of terms change.
    expect(new Set(rules.flatMap((r) => Object.keys(r.match)))).toEqual(new Set(Object.keys(Match.properties as object)));
    expect(new Set(rules.flatMap((r) => (r.review?.terms_change ? [r.review.terms_change.when] : [])))).toEqual(new Set(['in_review', 'after_approval']));
  });

  it('the mistakes docs/scenarios.md shows for a document are the ones the check gives', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/scenarios.md', import.meta.url)), 'utf8');
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
    // An input is a document: an answer (with its `valid`) is never read as one.
    const pairs = blocks.flatMap((input, i) => ('rules' in input && !('valid' in input) && blocks[i + 1] && 'mistakes' in blocks[i + 1]! ? [[input, blocks[i + 1]!]] : []));
    expect(pairs.length).toBeGreaterThanOrEqual(1);
    for (const [input, answer] of pairs) expect(mistakesOf(JSON.stringify(input))).toEqual(answer!.mistakes);
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

  describe('each mistake reads from the schema at its place: exact path, message and hint', () => {
    const rule = (part: Record<string, unknown>) => JSON.stringify({ rules: [{ match: { all: true }, ...part }] });
    const DELAY = 'a duration such as "90m", "1h30m", "2d" or "PT2H", or a number of seconds';
    const DELAY_HINT = 'write a delay such as "30m", "1h30m", "2d", "PT2H" or a number of seconds';
    it.each([
      ['an approvals role that is not a role names the roles', rule({ review: { approvals: { ceo: '1h' } } }), [
        { path: 'rules[0].review.approvals.ceo', message: 'is not a known field', hint: 'approvals has manager, payroll_reviewer and owner' },
      ]],
      ['corrections.to names who can get the data back', rule({ review: { corrections: { to: 'hr', after: '1h' } } }), [
        { path: 'rules[0].review.corrections.to', message: 'must be one of: employee, manager', hint: 'write employee or manager; who gets the data back: the employee, who submits again, or the manager, who corrects it after manager_corrects' },
      ]],
      ['payroll.outcome names both outcomes and what leaving it out does', rule({ payroll: { outcome: 'maybe' } }), [
        { path: 'rules[0].payroll.outcome', message: 'must be one of: success, failure', hint: "write success or failure; left out, the organization's payroll_failure switch decides" },
      ]],
      ['terms_change.when names both moments', rule({ review: { terms_change: { when: 'later', after: '1h', terms: { position: 'Cook' } } } }), [
        { path: 'rules[0].review.terms_change.when', message: 'must be one of: in_review, after_approval', hint: 'write in_review or after_approval; in_review, the default, counts from the identity check, after_approval from the last approval' },
      ]],
      ['a selector that does not exist names the selectors', JSON.stringify({ rules: [{ match: { first_name: 'Anna' } }] }), [
        { path: 'rules[0].match.first_name', message: 'is not a known field', hint: 'match has all, reference, email, name, template and metadata' },
      ]],
      ['all takes only true', JSON.stringify({ rules: [{ match: { all: false } }] }), [
        { path: 'rules[0].match.all', message: 'must be true', hint: 'write true; {"all": true} selects every onboarding; to select fewer, leave all out and give other conditions' },
      ]],
      ['an empty match names the selectors', JSON.stringify({ rules: [{ match: {} }] }), [
        { path: 'rules[0].match', message: 'must not be empty', hint: 'match has all, reference, email, name, template and metadata' },
      ]],
      ['an unknown field of the document, of a rule, of terms names the fields of that place', JSON.stringify({ extra: 1, rules: [{ match: { all: true }, people: 1, review: { terms_change: { after: '1h', terms: { wage: 1 } } } }] }), [
        { path: 'extra', message: 'is not a known field', hint: 'a scenario has version, name, description, rules, delivery_faults and expect' },
        { path: 'rules[0].people', message: 'is not a known field', hint: 'a rule has name, match, employee, review, contract and payroll' },
        { path: 'rules[0].review.terms_change.terms.wage', message: 'is not a known field', hint: 'terms has contract_type, hours_per_week, hourly_wage_cents, position and start_date' },
      ]],
      ['an unknown field is not also read as a delay', rule({ review: { corrections: { to: 'employee', after: '1h', reason: 'typo' } } }), [
        { path: 'rules[0].review.corrections.reason', message: 'is not a known field', hint: 'corrections has to, times and after' },
      ]],
      ['a delay of the wrong type says what a delay is, "never" where the step takes it', rule({ employee: { opens: true }, review: { corrections: { to: 'employee', after: [] } } }), [
        { path: 'rules[0].employee.opens', message: `must be ${DELAY}, or "never"`, hint: `${DELAY_HINT}, or "never"` },
        { path: 'rules[0].review.corrections.after', message: `must be ${DELAY}`, hint: DELAY_HINT },
      ]],
      ['approvals of the wrong type say both forms', rule({ review: { approvals: true } }), [
        { path: 'rules[0].review.approvals', message: 'must be one delay (or "never") for every required role, or an object with a delay per role', hint: `${DELAY_HINT}, or "never"; approvals has manager, payroll_reviewer and owner` },
      ]],
      ['a bad delay for one role is reported for that role only', rule({ review: { approvals: { manager: true, owner: 'soon' } } }), [
        { path: 'rules[0].review.approvals.manager', message: `must be ${DELAY}, or "never"`, hint: `${DELAY_HINT}, or "never"` },
        { path: 'rules[0].review.approvals.owner', message: '"soon" is not a delay', hint: DELAY_HINT },
      ]],
      ['an empty delay is one mistake, not two', rule({ payroll: { after: '' } }), [
        { path: 'rules[0].payroll.after', message: 'must not be empty', hint: `${DELAY_HINT}, or "never"` },
      ]],
    ])('%s', (_name, text, expected) => {
      expect(mistakesOf(text)).toEqual(expected);
    });
  });

  it('a file that cannot be read says so in the message, naming the file', () => {
    const errorOf = (input: string) => {
      try {
        readScenarioFile(input);
      } catch (err) {
        return err as ScenarioFileError;
      }
      throw new Error('expected an error');
    };
    const missing = errorOf(`${dir}does-not-exist.yaml`);
    expect(missing).toBeInstanceOf(ScenarioFileError);
    expect(missing.message).toBe(`Cannot read scenario file ${dir}does-not-exist.yaml: no such file`);
    expect(errorOf(dir).message).toBe(`Cannot read scenario file ${dir}: it is a folder`);
  });

  describe('ready scenarios by name', () => {
    it("a bare name is the package's scenarios/<name>.yaml, whatever the working folder", () => {
      expect(readyScenarioNames()).toEqual(readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => f.replace(/\.yaml$/, '')).sort());
      expect(readyScenarioNames()).toContain('happy-path');
      for (const name of readyScenarioNames()) expect(readScenarioFile(name), name).toEqual(readScenarioFile(`${dir}${name}.yaml`));
    });

    it('an unknown name lists the names there are', () => {
      expect(() => readScenarioFile('happy-pat')).toThrow(
        new ScenarioFileError(`No ready scenario is named happy-pat; the ready scenarios are ${readyScenarioNames().join(', ')} (write ./happy-pat for a file of that name)`, 'happy-pat'),
      );
    });

    it('anything with a slash or a dot stays a path', () => {
      const tmp = mkdtempSync(join(tmpdir(), 'scenario-names-'));
      mkdirSync(join(tmp, 'happy-path'));
      writeFileSync(join(tmp, 'happy-path', 'x.yaml'), 'name: local\nrules: []\n');
      writeFileSync(join(tmp, 'plain'), 'name: no-extension\nrules: []\n');
      expect(readScenarioFile(join(tmp, 'happy-path', 'x.yaml')).name).toBe('local');
      expect(readScenarioFile(join(tmp, 'plain')).name).toBe('no-extension');
      expect(() => readScenarioFile('happy-path.yaml')).toThrow(/^Cannot read scenario file happy-path\.yaml: no such file$/);
    });
  });

  describe('a file is read by its extension', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'scenario-ext-'));
    const file = (name: string, text: string) => {
      writeFileSync(join(tmp, name), text);
      return join(tmp, name);
    };
    const mistakesOfFile = (path: string) => {
      try {
        readScenarioFile(path);
      } catch (err) {
        return (err as ScenarioError).mistakes;
      }
      throw new Error('expected a ScenarioError');
    };

    it('.json is JSON only: a trailing comma is refused, as over HTTP', () => {
      expect(mistakesOfFile(file('trailing.json', '{"rules": [],}'))).toEqual([{ path: '', message: expect.stringMatching(/^not valid JSON: /) }]);
      expect(mistakesOfFile(file('yaml-in.json', 'rules: []\n'))[0]!.message).toMatch(/^not valid JSON: /);
      expect(readScenarioFile(file('ok.json', '{"name": "ok", "rules": []}')).name).toBe('ok');
    });

    it('.yaml and .yml are YAML, and a parser message ends on the place, not a colon', () => {
      const [broken] = mistakesOfFile(file('broken.yaml', 'rules: [\n'));
      expect(broken!.message).toBe('not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1');
      expect(mistakesOfFile(file('twice.yml', 'rules: []\nrules: []\n'))[0]!.message).toBe('not valid YAML: Map keys must be unique at line 2, column 1');
      expect(readScenarioFile(file('ok.yml', 'name: ok\nrules: []\n')).name).toBe('ok');
    });

    it('text that is neither JSON nor YAML has no dangling colon either', () => {
      expect(mistakesOf('rules: [unclosed')[0]!.message).not.toMatch(/:$/);
    });
  });

  it('a delay given as a number of seconds must fit the clock too (YAML reads .inf as a number)', () => {
    const DELAY_HINT = 'write a delay such as "30m", "1h30m", "2d", "PT2H" or a number of seconds, at most 100 years ("36524d")';
    expect(mistakesOf('rules:\n  - match: { all: true }\n    employee: { opens: .inf, submits: 1e300, signs: 3153600000 }\n')).toEqual([
      { path: 'rules[0].employee.opens', message: 'Infinity seconds is longer than 100 years, the longest delay', hint: DELAY_HINT },
      { path: 'rules[0].employee.submits', message: '1e+300 seconds is longer than 100 years, the longest delay', hint: DELAY_HINT },
    ]);
  });

  it('several files merge into one scenario, rules in the order given', () => {
    const a = parseScenario('name: a\nrules: [{ match: { reference: "A*" } }]');
    const b = parseScenario('name: b\nrules: [{ match: { all: true } }]');
    const merged = mergeScenarios([a, b]);
    expect(merged.name).toBe('a + b');
    expect(merged.rules.map((r) => r.match)).toEqual([{ reference: 'A*' }, { all: true }]);
  });
});
