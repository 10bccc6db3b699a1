import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { mergeScenarios, parseScenarioFile, readScenarioText, ScenarioError, type ScenarioMistake } from '../../scenarios/scenario.load.js';
import type { ScenarioDocument } from '../../scenarios/scenario.schemas.js';
import { scenarioWarnings, type ScenarioWarning } from '../../scenarios/scenario.warnings.js';
import type { ControlClient, ScenarioReport, ScenarioState } from '../../control/control.client.js';
import { expectationsCtrf, expectationsJunit } from '../../scenarios/scenario.expect.js';
import { action, clientCommand, commandGroup, optionsOf, printFields, printJson, printReportAs, printTable, reportFormat, reportFormatOption, type ReportFormat } from '../client.js';
import { ApiError, httpControl, UsageError, type ClientOptions } from '../../client/http.js';

/** One file read and checked the way the emulator reads `--scenario` files. */
type FileCheck = { file: string; document: ScenarioDocument; mistakes?: undefined } | { file: string; document?: undefined; mistakes: ScenarioMistake[] };

/** The workspace named by --workspace, else the one the key picks. */
const scenarioOf = (o: ClientOptions, workspace: string | undefined): ControlClient['scenario'] => httpControl(o, workspace).scenario;

/**
 * A file that cannot be read (or a ready scenario name that does not exist) is a command-line
 * problem (exit 2, as for `snapshot load`); what it holds (not JSON or YAML, not a valid
 * scenario) is a mistake of the document (exit 1).
 */
function checkFile(file: string): FileCheck {
  let read: { path: string; text: string };
  try {
    read = readScenarioText(file);
  } catch (err) {
    throw err instanceof ScenarioError ? new UsageError(err.message) : err;
  }
  try {
    return { file, document: parseScenarioFile(read.text, read.path, file) };
  } catch (err) {
    if (err instanceof ScenarioError) return { file, mistakes: err.mistakes };
    throw err;
  }
}

const mistakePath = (path: string) => path || '(document)';
const mistakeLine = (file: string | undefined, m: ScenarioMistake) =>
  `${file === undefined ? '' : `${file}: `}${mistakePath(m.path)} ${m.message}${m.hint ? ` (${m.hint})` : ''}`;

function printMistakes(checks: FileCheck[]): void {
  for (const c of checks) for (const m of c.mistakes ?? []) process.stderr.write(`${mistakeLine(c.file, m)}\n`);
}

/** Warnings go to stderr like mistakes, marked so a reader tells them apart; they change no exit status. */
const warningLine = (file: string | undefined, w: ScenarioWarning) => `warning: ${file === undefined ? '' : `${file}: `}${w.path} ${w.message}`;

/**
 * Scenario files checked locally and merged (rules in the order given), as `--scenario` does at
 * start; with a mistake, each is printed, exit status 1, and null: nothing is to be sent.
 */
export function scenarioFromFiles(files: string[], refusal = 'nothing was loaded'): ScenarioDocument | null {
  const checks = files.map(checkFile);
  if (checks.some((c) => c.mistakes)) {
    printMistakes(checks);
    process.stderr.write(`onboarding-emulator: ${refusal}\n`);
    process.exitCode = 1;
    return null;
  }
  return mergeScenarios(checks.map((c) => c.document!));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The scenario state as fields, its rules, and each driven onboarding's next step. */
function printState(state: ScenarioState, extra: [string, string][] = []): void {
  const rules = state.document?.rules ?? [];
  printFields([
    ['scenario', state.loaded ? (state.name ?? '(unnamed)') : 'none'],
    ...extra,
    ['source', state.source],
    ['loaded at', state.loaded_at],
    ['rules', state.loaded ? rules.length : null],
    ['planned', plural(state.planned.length, 'onboarding')],
  ]);
  if (rules.length > 0) {
    process.stdout.write('\nrules:\n');
    printTable(['rule', 'name', 'match'], rules.map((r, i) => [`rules[${i}]`, r.name, JSON.stringify(r.match)]));
  }
  if (state.planned.length > 0) {
    process.stdout.write('\nnext steps:\n');
    printTable(['onboarding', 'rule', 'step', 'due at'], state.planned.map((p) => [p.onboarding_id, p.rule, p.step, p.due_at]));
  }
}

/** The counts, one row per expectation, and each reason that is not a pass on its own line. */
function printReport(report: ScenarioReport): void {
  printFields([
    ['scenario', report.scenario ?? '(unnamed)'],
    ['now', report.now],
    ['passed', report.passed],
    ['failed', report.failed],
    ['pending', report.pending],
    ['final', report.final ? 'yes: what was pending failed' : 'no'],
  ]);
  if (report.expectations.length === 0) return;
  process.stdout.write('\nexpectations:\n');
  printTable(['status', 'kind', 'name'], report.expectations.map((e) => [e.status, e.kind, e.name]));
  for (const e of report.expectations) process.stdout.write(`\n${e.status}: ${e.name}\n  ${e.reason}\n`);
}

export function registerScenario(program: Command): void {
  const scenario = commandGroup(program, 'scenario', 'Check scenario files offline, or load, show, report on and clear the scenario of a running emulator (/_emulator/scenario)');

  // Offline: no --url or --key, nothing is sent.
  commandGroup(scenario, 'validate', 'Check scenario files (JSON or YAML) offline, with the checks the emulator applies; nothing is loaded')
    .argument('<file...>', 'scenario files, or names of ready scenarios (happy-path); each is checked on its own')
    .option('--json', 'print one result per file as JSON ({file, valid, name, rules, mistakes, warnings})')
    .addHelpText('after', [
      '',
      'Exit status: 0 every file is a valid scenario, 1 a file has mistakes (each printed as',
      '"file: path message (hint)" on stderr), 2 a file cannot be read. Parts that can do nothing',
      'as written are printed as "warning: file: path message" and change no exit status.',
      '',
      'Examples:',
      '  onboarding-emulator scenario validate happy-path',
      '  onboarding-emulator scenario validate my-scenario.yaml --json',
    ].join('\n'))
    .action(action(async (files: string[], opts: { json?: boolean }) => {
      const checks: FileCheck[] = [];
      let unreadable = false;
      for (const file of files) {
        try {
          checks.push(checkFile(file));
        } catch (err) {
          if (!(err instanceof UsageError)) throw err;
          process.stderr.write(`onboarding-emulator: ${err.message}\n`);
          unreadable = true;
        }
      }
      if (opts.json) {
        printJson(checks.map((c) => ({
          file: c.file,
          valid: c.document !== undefined,
          name: c.document?.name ?? null,
          rules: c.document?.rules.length ?? 0,
          mistakes: (c.mistakes ?? []).map((m) => ({ ...m, path: mistakePath(m.path) })),
          warnings: c.document ? scenarioWarnings(c.document) : [],
        })));
      } else if (checks.length > 0) {
        printTable(['file', 'result', 'name', 'rules'], checks.map((c) =>
          c.document ? [c.file, 'valid', c.document.name, c.document.rules.length] : [c.file, plural(c.mistakes.length, 'mistake'), null, null]));
      }
      printMistakes(checks);
      if (!opts.json) for (const c of checks) for (const w of c.document ? scenarioWarnings(c.document) : []) process.stderr.write(`${warningLine(c.file, w)}\n`);
      if (unreadable) process.exitCode = 2;
      else if (checks.some((c) => c.mistakes)) process.exitCode = 1;
    }));

  clientCommand(scenario, 'load', "Check scenario files locally, then load them into the workspace (PUT /_emulator/scenario), replacing its scenario")
    .argument('<file...>', 'scenario files (JSON or YAML) or names of ready scenarios (happy-path); several play as one, their rules in the order given, as repeated --scenario does')
    .option('--workspace <id>', 'the workspace to load it into (default: the one --key belongs to, else default)')
    .addHelpText('after', [
      '',
      'A name without a slash or a dot is a ready scenario of the package (see scenarios/README.md).',
      'Every onboarding of the workspace is planned again from now. A file with mistakes is not sent:',
      'each mistake is printed as "file: path message (hint)" and the exit status is 1. What the',
      'loaded scenario has that can do nothing is printed as "warning: path message".',
      '',
      'Examples:',
      '  onboarding-emulator scenario load happy-path',
      '  onboarding-emulator scenario load slow.yaml happy.yaml --workspace ws_123',
    ].join('\n'))
    .action(action(async (files: string[], opts: { workspace?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      const document = scenarioFromFiles(files);
      if (!document) return;
      let state: ScenarioState;
      try {
        state = await scenarioOf(o, opts.workspace).load(document);
      } catch (err) {
        // The emulator's own check refused it: every mistake, with its hint.
        if (!(err instanceof ApiError) || err.details.length === 0) throw err;
        process.stderr.write(`error ${err.status} ${err.code ?? 'unknown'}: ${err.message}\n`);
        for (const m of err.details as ScenarioMistake[]) process.stderr.write(`  ${mistakeLine(undefined, m)}\n`);
        process.exitCode = 1;
        return;
      }
      if (o.json) return printJson(state);
      // Paths of the scenario as loaded: with several files, its rules are numbered across them.
      for (const w of state.warnings) process.stderr.write(`${warningLine(undefined, w)}\n`);
      printState(state, [['from', files.join(', ')]]);
    }));

  clientCommand(scenario, 'show', "Show the workspace's scenario, its rules and the next planned step of every driven onboarding (GET /_emulator/scenario)")
    .option('--workspace <id>', 'the workspace to show (default: the one --key belongs to, else default)')
    .addHelpText('after', '\n--json prints the whole answer, with the document and the magic e-mail addresses.')
    .action(action(async (opts: { workspace?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      const state = await scenarioOf(o, opts.workspace).get();
      if (o.json) return printJson(state);
      printState(state);
    }));

  clientCommand(scenario, 'report', "Check the scenario's expectations (expect:) against the workspace clock now: each passed, failed or pending, and why (GET /_emulator/scenario/report)")
    .option('--workspace <id>', 'the workspace to report on (default: the one --key belongs to, else default)')
    .option('--junit <file>', 'also write the report as JUnit XML to this file (a pending expectation is skipped)')
    .option('--ctrf <file>', 'also write the report as CTRF JSON (Common Test Report Format) to this file (a pending expectation is pending)')
    .addOption(reportFormatOption())
    .option('--final', 'the verdict at the end of a run: a still-pending expectation fails ("not reached by the end of the run"), so a run that did nothing cannot pass')
    .addHelpText('after', [
      '',
      'Exit status: 0 no expectation failed (pending ones included, unless --final), 1 one failed.',
      '',
      'Examples:',
      '  onboarding-emulator scenario report',
      '  onboarding-emulator scenario report --final --junit reports/scenario.xml   # the gate at the end of a CI run',
      '  onboarding-emulator scenario report --final --ctrf reports/scenario.ctrf.json',
      '  onboarding-emulator scenario report --final --format ctrf > scenario.ctrf.json',
    ].join('\n'))
    .action(action(async (opts: { workspace?: string; junit?: string; ctrf?: string; final?: boolean; format?: ReportFormat }, cmd: Command) => {
      const o = optionsOf(cmd);
      // A format mistake is found before the emulator is asked or a file is written.
      const format = reportFormat({ ...o, format: opts.format });
      const report = await scenarioOf(o, opts.workspace).report(opts.final === true);
      if (opts.junit) writeFileSync(opts.junit, expectationsJunit(report));
      if (opts.ctrf) writeFileSync(opts.ctrf, `${JSON.stringify(expectationsCtrf(report), null, 2)}\n`);
      printReportAs(format, {
        json: () => report,
        junit: () => expectationsJunit(report),
        ctrf: () => expectationsCtrf(report),
        table: () => printReport(report),
      });
      if (report.failed > 0) process.exitCode = 1;
    }));

  clientCommand(scenario, 'clear', "Remove the workspace's scenario; its planned steps are cancelled, magic e-mail addresses still play (DELETE /_emulator/scenario)")
    .option('--workspace <id>', 'the workspace to clear (default: the one --key belongs to, else default)')
    .action(action(async (opts: { workspace?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      const state = await scenarioOf(o, opts.workspace).clear();
      if (o.json) return printJson(state);
      printState(state);
    }));
}
