import { readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJson, parseJsonOrYaml, parseYaml, type DocumentRead } from '../core/documents.js';
import { CLOCK_LIMITS } from '../core/clock.js';
import { parseDuration } from '../core/durations.js';
import { largerThan, mistakesUpTo, WHOLE_CHECK_VALUES } from '../core/bounded-validation.js';
import { compile, join, type Mistake } from '../core/validation.js';
import { expectMistakes } from './scenario.expect.js';
import { faultMistakes } from './scenario.faults.js';
import { Delay, DelayOrNever, ScenarioSchema, type ScenarioDocument } from './scenario.schemas.js';

export interface ScenarioMistake {
  path: string;
  message: string;
  hint?: string;
}

/** Mistakes a refusal lists: past these, a document is wrong throughout and more would only weigh on the answer. */
const SCENARIO_MISTAKES_LISTED = 100;

/**
 * The mistakes of a scenario document, each with its path and a hint: every one, up to
 * SCENARIO_MISTAKES_LISTED (`total` counts them all; `atLeast`: the check of a large document
 * stopped there, so their total is not known).
 */
export class ScenarioError extends Error {
  readonly mistakes: ScenarioMistake[];
  constructor(mistakes: ScenarioMistake[], readonly source = 'scenario', readonly total = mistakes.length, readonly atLeast = false) {
    const listed = mistakes.slice(0, SCENARIO_MISTAKES_LISTED);
    super(`${source} is not a valid scenario:\n${listed.map((m) => `  ${m.path || '(document)'}: ${m.message}${m.hint ? ` (${m.hint})` : ''}`).join('\n')}`);
    this.mistakes = listed;
  }
}

/**
 * A file that could not be read at all, or a ready scenario name that does not exist: the
 * message says so itself instead of counting it as a mistake of a document.
 */
export class ScenarioFileError extends ScenarioError {
  constructor(readonly reason: string, source: string) {
    super([{ path: '', message: reason }], source);
    this.message = reason;
  }
}

const validateShape = compile<ScenarioDocument>(ScenarioSchema);

/** The hint of a delay that does not read as one (the CLI prints it as is). */
const DELAY_HINT = 'write a delay such as "30m", "1h30m", "2d", "PT2H" or a number of seconds';
const UNKNOWN = 'is not a known field';

export function checkScenario(data: unknown, source = 'scenario'): ScenarioDocument {
  // A scenario written by hand holds a few thousand values; a larger document is checked piece
  // by piece up to the mistakes listed, as the whole check collects one error per wrong item.
  const large = largerThan(data, WHOLE_CHECK_VALUES);
  const shape = large ? boundedShape(data) : validateShape(data);
  const at = places(data);
  const mistakes = shape.ok ? [] : explain(shape.mistakes, at);
  // Delays are read even when the shape is wrong, so one pass reports every mistake.
  mistakes.push(...delays(at, mistakes));
  mistakes.push(...faultMistakes(data, mistakes));
  mistakes.push(...expectMistakes(data, mistakes));
  if (mistakes.length || !shape.ok) throw new ScenarioError(mistakes, source, mistakes.length, large && mistakes.length >= SCENARIO_MISTAKES_LISTED);
  return shape.value;
}

function boundedShape(data: unknown): ReturnType<typeof validateShape> {
  const found = mistakesUpTo(ScenarioSchema, data, SCENARIO_MISTAKES_LISTED);
  return found.length ? { ok: false, mistakes: found } : { ok: true, value: data as ScenarioDocument };
}

/**
 * Messages and hints come from the schema itself, found at each mistake's path: an unknown
 * field names the fields of its place, a choice its values, a delay the forms it takes, a
 * union its description. So a field added to scenario.schemas.ts is explained without a table here.
 */
interface Node {
  type?: string;
  description?: string;
  properties?: Record<string, Node>;
  additionalProperties?: boolean | Node;
  items?: Node;
  anyOf?: Node[];
  const?: unknown;
  enum?: unknown[];
}

/** A place in the document: the schema node that governs it (none: an unknown field), the value, how hints name it. */
interface Place {
  node: Node | undefined;
  value: unknown;
  label: string;
  /** The object holding it: its label and the fields it takes. */
  within?: { label: string; fields: string[] };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (items: unknown[], last: string) => items.map(String).join(', ').replace(/, ([^,]*)$/, ` ${last} $1`);

/** An object or array is read by the branch of a union of its own type (the per-role approvals, say). */
function branchFor(node: Node, value: unknown): Node {
  const type = Array.isArray(value) ? 'array' : isRecord(value) ? 'object' : null;
  if (!node.anyOf || !type) return node;
  for (const b of node.anyOf) {
    const found = branchFor(b, value);
    if (found.type === type) return found;
  }
  return node;
}

/**
 * Every place of the document by the path mistakes carry, the fields it leaves out included;
 * not inside a field the schema does not know (a mistake there is the field's own), and at most
 * PLACES_MAX in all (a mistake past them goes without its hint).
 */
const PLACES_MAX = 10_000;
function places(data: unknown): Map<string, Place> {
  const out = new Map<string, Place>();
  const visit = (node: Node | undefined, value: unknown, path: string, label: string, within?: Place['within']): void => {
    if (out.size >= PLACES_MAX) return;
    out.set(path, { node, value, label, ...(within ? { within } : {}) });
    if (!node) return;
    const shown = branchFor(node, value);
    if (isRecord(value)) {
      const props = shown?.properties ?? {};
      const extra = typeof shown?.additionalProperties === 'object' ? shown.additionalProperties : undefined;
      const holder = { label, fields: Object.keys(props) };
      for (const key of new Set([...Object.keys(value), ...Object.keys(props)])) {
        visit(Object.hasOwn(props, key) ? props[key] : extra, value[key], join(path, key), key, holder);
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(shown?.items, item, `${path}[${i}]`, `a ${label.replace(/s$/, '')}`));
    }
  };
  visit(ScenarioSchema as Node, data, '', 'a scenario');
  return out;
}

/** A type list such as "must be a string or a number", which a union that matched no branch reports. */
const TYPE = '(?:an? (?:string|number|integer|boolean|object|array|null))';
const TYPE_LIST = new RegExp(`^must be ${TYPE}(?:(?:, | or )${TYPE})*$`);

function explain(found: Mistake[], at: Map<string, Place>): ScenarioMistake[] {
  // Is there another mistake at the path of this one, or under it? Counted once for all.
  const atPath = new Map<string, number>();
  const holding = new Set<string>();
  for (const { path } of found) {
    atPath.set(path, (atPath.get(path) ?? 0) + 1);
    for (let end = Math.max(path.lastIndexOf('.'), path.lastIndexOf('[')); end > 0; end = Math.max(path.lastIndexOf('.', end - 1), path.lastIndexOf('[', end - 1))) holding.add(path.slice(0, end));
  }
  const others = (m: Mistake) => atPath.get(m.path)! > 1 || holding.has(m.path);
  // An object given for a union that takes objects is of the right kind: its own mistakes
  // are the ones to read, not "must be a string or a number" from the union's other branches.
  const misleading = (m: Mistake) => {
    const place = at.get(m.path);
    return !!place?.node?.anyOf && TYPE_LIST.test(m.message) && branchFor(place.node, place.value) !== place.node && others(m);
  };
  return found
    .filter((m) => !misleading(m))
    .map((m) => {
      const place = at.get(m.path);
      const hint = m.message === UNKNOWN ? fieldsOf(place?.within) : place?.node && hintFor(branchFor(place.node, place.value), place.label);
      return { path: m.path, message: reword(m.message, place?.node), ...(hint ? { hint } : {}) };
    });
}

/** A union's type list reads better as what the union is for, when the schema says it. */
function reword(message: string, node: Node | undefined): string {
  if (!node?.anyOf?.length || !node.description || !TYPE_LIST.test(message)) return message;
  return `must be ${node.description.split(';')[0]!.trim()}`;
}

const fieldsOf = (within: Place['within']) => (within?.fields.length ? `${within.label} has ${list(within.fields, 'and')}` : undefined);

const DELAYS = new Set([Delay.description, DelayOrNever.description]);
/** The delay a place takes: its node, or the delay branch of its union (approvals: one delay for every role). */
const delayIn = (node: Node): Node | undefined => (DELAYS.has(node.description) ? node : node.anyOf?.find((b) => DELAYS.has(b.description)));

function choicesOf(node: Node): unknown[] | undefined {
  if (node.const !== undefined) return [node.const];
  if (node.enum) return node.enum;
  if (node.anyOf?.length && node.anyOf.every((b) => b.const !== undefined)) return node.anyOf.map((b) => b.const);
  return undefined;
}

function hintFor(node: Node, label: string): string | undefined {
  if (DELAYS.has(node.description)) return node.description === DelayOrNever.description ? `${DELAY_HINT}, or "never"` : DELAY_HINT;
  const choices = choicesOf(node);
  if (choices) return `write ${list(choices, 'or')}${node.description ? `; ${node.description}` : ''}`;
  if (node.properties) return fieldsOf({ label, fields: Object.keys(node.properties) });
  if (node.anyOf) return [...new Set(node.anyOf.map((b) => hintFor(b, label)).filter(Boolean))].join('; ') || node.description;
  return node.description;
}

/** Every delay must read as a duration: the schema only knows it is a string. */
function delays(at: Map<string, Place>, reported: ScenarioMistake[]): ScenarioMistake[] {
  const known = new Set(reported.map((m) => m.path));
  const mistakes: ScenarioMistake[] = [];
  // The clock's own limit on one advance: a longer delay could only be due past the clock's range.
  const tooLong = (path: string, written: string) =>
    mistakes.push({ path, message: `${written} is longer than 100 years, the longest delay`, hint: `${DELAY_HINT}, at most 100 years ("36524d")` });
  for (const [path, { node, value }] of at) {
    if (value === 'never' || !node || !delayIn(node) || known.has(path)) continue;
    // A number of seconds has passed the schema; YAML's .inf and a huge number still must fit the clock.
    if (typeof value === 'number') {
      if (!(value * 1000 <= CLOCK_LIMITS.maxAdvanceMs)) tooLong(path, `${value} seconds`);
      continue;
    }
    if (typeof value !== 'string') continue;
    const ms = parseDuration(value);
    if (ms === null) mistakes.push({ path, message: `"${value}" is not a delay`, hint: DELAY_HINT });
    else if (ms > CLOCK_LIMITS.maxAdvanceMs) tooLong(path, `"${value}"`);
  }
  return mistakes;
}

/** JSON or YAML text to a checked scenario. */
export function parseScenario(text: string, source = 'scenario'): ScenarioDocument {
  return checked(parseJsonOrYaml(text), source);
}

/** The ready scenarios shipped with the package: `scenarios/` beside `src/` and `dist/`. */
export const READY_SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

export function readyScenarioNames(): string[] {
  let files: string[];
  try {
    files = readdirSync(READY_SCENARIOS_DIR);
  } catch {
    return []; // a copy of the code without the folder: no name is known, and the refusal says so
  }
  return files.filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -'.yaml'.length)).sort();
}

/**
 * A bare name (no slash, no dot) is a ready scenario of the package, so `--scenario happy-path`
 * works from any folder, the package's own inside node_modules included; anything else is a
 * path. A file of such a name in the working folder is reached as `./name`.
 */
const isReadyName = (input: string): boolean => /^[^/\\.]+$/.test(input);

/** The file a scenario input names; throws ScenarioFileError for an unknown ready name. */
function scenarioPath(input: string): string {
  if (!isReadyName(input)) return input;
  const names = readyScenarioNames();
  if (!names.includes(input)) {
    const known = names.length ? `the ready scenarios are ${names.join(', ')}` : `no ready scenarios were found in ${READY_SCENARIOS_DIR}`;
    throw new ScenarioFileError(`No ready scenario is named ${input}; ${known} (write ./${input} for a file of that name)`, input);
  }
  return `${READY_SCENARIOS_DIR}${input}.yaml`;
}

const WHY_UNREADABLE: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'it is a folder', ENOTDIR: 'a part of the path is not a folder' };

/** The text of a scenario file (or ready scenario); one that cannot be read throws ScenarioFileError. */
export function readScenarioText(input: string): { path: string; text: string } {
  const path = scenarioPath(input);
  try {
    return { path, text: readFileSync(path, 'utf8') };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ScenarioFileError(`Cannot read scenario file ${input}: ${(code && WHY_UNREADABLE[code]) ?? (err as Error).message}`, input);
  }
}

/**
 * A file is read by its extension: `.json` as JSON only (a trailing comma is refused, as over
 * HTTP), `.yaml` and `.yml` as YAML; another extension as JSON, else YAML.
 */
export function parseScenarioFile(text: string, path: string, source = path): ScenarioDocument {
  const ext = extname(path).toLowerCase();
  return checked(ext === '.json' ? parseJson(text) : ext === '.yaml' || ext === '.yml' ? parseYaml(text) : parseJsonOrYaml(text), source);
}

/** A scenario file, or a ready scenario by name (`happy-path`), read and checked. */
export function readScenarioFile(input: string): ScenarioDocument {
  const { path, text } = readScenarioText(input);
  return parseScenarioFile(text, path, input);
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
    ...(docs.some((d) => d.delivery_faults?.length) ? { delivery_faults: docs.flatMap((d) => d.delivery_faults ?? []) } : {}),
    ...(docs.some((d) => d.expect?.length) ? { expect: docs.flatMap((d) => d.expect ?? []) } : {}),
  };
}
