import { parseJsonOrYaml, readDocumentFile, type DocumentRead } from '../core/documents.js';
import { parseDuration } from '../core/durations.js';
import { compile } from '../core/validation.js';
import { ScenarioSchema, type ScenarioDocument } from './scenario.schema.js';

export interface ScenarioMistake {
  path: string;
  message: string;
  hint?: string;
}

/** Every mistake of a scenario document at once, each with its path and a hint. */
export class ScenarioError extends Error {
  constructor(readonly mistakes: ScenarioMistake[], readonly source = 'scenario') {
    super(`${source} is not a valid scenario:\n${mistakes.map((m) => `  ${m.path || '(document)'}: ${m.message}${m.hint ? ` (${m.hint})` : ''}`).join('\n')}`);
  }
}

const validateShape = compile<ScenarioDocument>(ScenarioSchema);

const DELAY_HINT = 'write a delay such as "30m", "1h30m", "2d", "PT2H" or a number of seconds';

/** Hints for the mistakes people make most, by the last segment of the path. */
function hintFor(path: string, message: string): string | undefined {
  const last = path.split('.').pop()?.replace(/\[\d+\]$/, '') ?? '';
  if (message === 'is not a known field') {
    const known: Record<string, string> = {
      rules: 'a rule has name, match, employee, review, contract and payroll',
      employee: 'employee has opens, submits and signs',
      review: 'review has identity_check, approvals, corrections, manager_corrects and terms_change',
      contract: 'contract has sent and employer_signs',
      payroll: 'payroll has connector, outcome, after, error_code and resolved',
      match: 'match has all, reference, email, name, template and metadata',
    };
    const section = path.split('.').slice(-2, -1)[0]?.replace(/\[\d+\]$/, '') ?? '';
    return known[section] ?? (path.includes('.') ? undefined : 'a scenario has version, name, description and rules');
  }
  if (['opens', 'submits', 'signs', 'identity_check', 'approvals', 'manager_corrects', 'sent', 'employer_signs', 'after', 'resolved', 'manager', 'payroll_reviewer', 'owner'].includes(last)) {
    return `${DELAY_HINT}, or "never"`;
  }
  if (path.endsWith('match') || path.includes('.match')) return 'select with {"all": true}, reference, email, name, template or metadata';
  return undefined;
}

export function checkScenario(data: unknown, source = 'scenario'): ScenarioDocument {
  const shape = validateShape(data);
  // Delays are read even when the shape is wrong, so one pass reports every mistake.
  const mistakes = shape.ok
    ? []
    : shape.mistakes.map((m) => {
        const hint = hintFor(m.path, m.message);
        return { path: m.path, message: m.message, ...(hint ? { hint } : {}) };
      });
  mistakes.push(...delays(data));
  if (mistakes.length || !shape.ok) throw new ScenarioError(mistakes, source);
  return shape.value;
}

/** Every delay must read as a duration: the schema only knows it is a string. */
function delays(data: unknown): ScenarioMistake[] {
  const mistakes: ScenarioMistake[] = [];
  const walk = (value: unknown, path: string, key: string): void => {
    if (typeof value === 'string' && isDelayField(key, path) && value !== 'never' && parseDuration(value) === null) {
      mistakes.push({ path, message: `"${value}" is not a delay`, hint: DELAY_HINT });
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`, k);
    }
  };
  const rules = (data as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return mistakes;
  rules.forEach((rule: unknown, i) => {
    if (!rule || typeof rule !== 'object') return;
    for (const section of ['employee', 'review', 'contract', 'payroll'] as const) {
      const part = (rule as Record<string, unknown>)[section];
      if (part && typeof part === 'object') walk(part, `rules[${i}].${section}`, section);
    }
  });
  return mistakes;
}

const NOT_DELAYS = new Set(['connector', 'outcome', 'error_code', 'to', 'when', 'times']);
const isDelayField = (key: string, path: string) => !NOT_DELAYS.has(key) && !path.includes('.terms_change.terms');

/** JSON or YAML text to a checked scenario. */
export function parseScenario(text: string, source = 'scenario'): ScenarioDocument {
  return checked(parseJsonOrYaml(text), source);
}

export function readScenarioFile(path: string): ScenarioDocument {
  return checked(readDocumentFile(path), path);
}

function checked(read: DocumentRead, source: string): ScenarioDocument {
  if (!read.ok) throw new ScenarioError([{ path: '', message: read.message }], source);
  return checkScenario(read.data, source);
}

/** Several files given at start are played as one: their rules in the order given. */
export function mergeScenarios(docs: ScenarioDocument[]): ScenarioDocument {
  if (docs.length === 1) return docs[0]!;
  return {
    version: 1,
    name: docs.map((d) => d.name ?? 'unnamed').join(' + '),
    rules: docs.flatMap((d) => d.rules),
  };
}
