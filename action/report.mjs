// The report half of the GitHub Action (report/action.yml), run with `if: always()`: saves the
// scenario report (JSON, JUnit and CTRF) and the requests and deliveries HAR files, writes the job
// summary (each expectation's verdict, a receiver check's grades when the job saved one, the
// delivery log's counts, the saved files), then stops the containers the start half ran.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ActionError, OWNER_KEY, appendSummary, call, docker, fail, input, setOutputs } from './lib.mjs';

/** Well under GitHub's 1 MiB cap on one step's summary, so a long reason never cuts the tables off. */
const SUMMARY_BYTES = 256 * 1024;
const REASON_CHARS = 300;
/** Deliveries counted: the control API's largest page, newest first. */
const DELIVERY_PAGE = 10_000;
const ICON = { passed: '✅', failed: '❌', pending: '⏳', warning: '⚠️', skipped: '➖' };

const base = input('url', process.env.EMULATOR_URL ?? '').replace(/\/+$/, '');
const key = input('key', process.env.EMULATOR_KEY || OWNER_KEY);
const outDir = resolve(input('output-dir', join(process.env.RUNNER_TEMP || tmpdir(), 'onboarding-emulator-report')));
const maxRows = Number(input('max-rows', '100'));

/** A table cell: one line, no pipe that would end the cell, at most REASON_CHARS. */
function cell(text) {
  const flat = String(text ?? '').replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  return flat.length > REASON_CHARS ? `${flat.slice(0, REASON_CHARS - 1)}…` : flat;
}

/** GETs a control path; its body as text, or undefined (with a warning) when it cannot be had. */
async function fetchText(path, warnings) {
  try {
    const { status, text } = await call(`${base}${path}`, { key, timeoutMs: 30_000 });
    if (status === 200) return text;
    warnings.push(`GET ${path} answered ${status}`);
  } catch (err) {
    warnings.push(`GET ${path}: ${err.message}`);
  }
  return undefined;
}

function save(name, text, files) {
  writeFileSync(join(outDir, name), text);
  files.push({ name, bytes: Buffer.byteLength(text) });
}

function expectationsSection(report) {
  if (!report) return ['### Scenario expectations', '', 'No scenario report: the emulator did not answer.', ''];
  const lines = ['### Scenario expectations', ''];
  if (report.expectations.length === 0) {
    lines.push(report.scenario ? `Scenario \`${report.scenario}\` declares no expectations.` : 'No scenario was loaded.', '');
    return lines;
  }
  const verdict = report.failed > 0 ? `${ICON.failed} failed` : `${ICON.passed} passed`;
  lines.push(`Scenario \`${report.scenario}\`: **${verdict}** (${report.passed} passed, ${report.failed} failed, ${report.pending} pending)`, '');
  lines.push('| | expectation | reason |', '| --- | --- | --- |');
  // Failures first: when rows are cut, the ones a reader needs stay.
  const rows = [...report.expectations].sort((a, b) => (a.status === 'failed' ? 0 : 1) - (b.status === 'failed' ? 0 : 1));
  for (const e of rows.slice(0, maxRows)) lines.push(`| ${ICON[e.status] ?? e.status} ${e.status} | ${cell(e.name)} | ${cell(e.reason)} |`);
  if (rows.length > maxRows) lines.push('', `… and ${rows.length - maxRows} more expectations, in scenario-report.json.`);
  lines.push('');
  return lines;
}

function receiverCheckSection(check) {
  const lines = ['### Receiver check', '', `${check.ok ? ICON.passed : ICON.failed} ${cell(check.url)}: **${check.ok ? 'ok' : 'failed'}**`, ''];
  lines.push('| | check | reason |', '| --- | --- | --- |');
  for (const c of check.checks.slice(0, maxRows)) lines.push(`| ${ICON[c.grade] ?? ''} ${c.grade}${c.required ? '' : ' (optional)'} | ${cell(c.title)} | ${cell(c.reason)} |`);
  lines.push('');
  return lines;
}

/** delivered, failed (failed and dead) and pending (pending and in progress), from the delivery log. */
function countDeliveries(list) {
  const counts = { delivered: 0, failed: 0, pending: 0, total: list.total, counted: list.data.length };
  for (const d of list.data) {
    if (d.status === 'succeeded') counts.delivered++;
    else if (d.status === 'failed' || d.status === 'dead') counts.failed++;
    else counts.pending++;
  }
  return counts;
}

function deliveriesSection(counts) {
  if (!counts) return ['### Webhook deliveries', '', 'No delivery log: the emulator did not answer.', ''];
  const lines = ['### Webhook deliveries', '', '| delivered | failed | pending |', '| --- | --- | --- |', `| ${counts.delivered} | ${counts.failed} | ${counts.pending} |`, ''];
  if (counts.total > counts.counted) lines.push(`The latest ${counts.counted} of ${counts.total} deliveries counted.`, '');
  return lines;
}

function filesSection(files) {
  if (files.length === 0) return [];
  return ['### Saved files', '', `In \`${outDir}\`${input('artifact') ? `, uploaded as the artifact \`${input('artifact')}\`` : ''}:`, '',
    ...files.map((f) => `- \`${f.name}\` (${(f.bytes / 1024).toFixed(1)} KiB)`), ''];
}

/** Stops the relay (first, so it closes its relay cleanly) and then the emulator. */
function stopContainers() {
  if (input('stop', 'true') !== 'true') return;
  const ids = input('containers', process.env.ONBOARDING_EMULATOR_CONTAINERS ?? '').split(/\s+/).filter(Boolean);
  for (const id of ids) {
    docker(['stop', '--time', '10', id], { timeoutMs: 30_000 });
    docker(['rm', '--force', '--volumes', id], { timeoutMs: 30_000 });
  }
}

/** The scenario report, the delivery counts and the saved files; what cannot be had is a warning. */
async function collect(warnings, files) {
  // No URL: the start step failed before it ran the container. The summary says so, and this
  // step adds no second failure to the first.
  if (!base) {
    warnings.push('no emulator URL: the start action did not run the emulator (or give the url input)');
    return {};
  }
  let report;
  let counts;
  const json = await fetchText('/_emulator/scenario/report?final=true', warnings);
  if (json !== undefined) {
    report = JSON.parse(json);
    save('scenario-report.json', json, files);
  }
  const junit = await fetchText('/_emulator/scenario/report?final=true&format=junit', warnings);
  if (junit !== undefined) save('scenario-report.junit.xml', junit, files);
  const ctrf = await fetchText('/_emulator/scenario/report?final=true&format=ctrf', warnings);
  if (ctrf !== undefined) save('scenario-report.ctrf.json', ctrf, files);
  const deliveries = await fetchText(`/_emulator/deliveries?limit=${DELIVERY_PAGE}`, warnings);
  if (deliveries !== undefined) counts = countDeliveries(JSON.parse(deliveries));
  const requestsHar = await fetchText('/_emulator/requests?format=har', warnings);
  if (requestsHar !== undefined) save('requests.har', requestsHar, files);
  const deliveriesHar = await fetchText('/_emulator/deliveries?format=har', warnings);
  if (deliveriesHar !== undefined) save('deliveries.har', deliveriesHar, files);
  return { report, counts };
}

async function main() {
  const warnings = [];
  const files = [];
  let collected = {};
  // Whatever goes wrong here, the containers stop.
  try {
    if (!Number.isInteger(maxRows) || maxRows < 1 || maxRows > 1000) throw new ActionError(`input max-rows: ${JSON.stringify(input('max-rows'))} is not a whole number from 1 to 1000`);
    mkdirSync(outDir, { recursive: true });
    collected = await collect(warnings, files);
  } finally {
    stopContainers();
  }
  const { report, counts } = collected;
  const checkFile = input('receiver-check');
  let check;
  if (checkFile) {
    if (!existsSync(checkFile)) warnings.push(`receiver-check: no file ${checkFile}`);
    else {
      check = JSON.parse(readFileSync(checkFile, 'utf8'));
      copyFileSync(checkFile, join(outDir, 'receiver-check.json'));
      files.push({ name: 'receiver-check.json', bytes: readFileSync(checkFile).length });
    }
  }
  const lines = ['## Onboarding emulator', '', ...expectationsSection(report)];
  if (check) lines.push(...receiverCheckSection(check));
  lines.push(...deliveriesSection(counts), ...filesSection(files));
  if (warnings.length) lines.push('### Warnings', '', ...warnings.map((w) => `- ${cell(w)}`), '');
  let summary = `${lines.join('\n')}\n`;
  if (Buffer.byteLength(summary) > SUMMARY_BYTES) {
    summary = `${Buffer.from(summary).subarray(0, SUMMARY_BYTES - 200).toString().replace(/\uFFFD$/, '')}\n\n… summary cut at ${SUMMARY_BYTES / 1024} KiB; the saved files hold everything.\n`;
  }
  appendSummary(summary);
  for (const w of warnings) console.log(`::warning title=onboarding-emulator report::${w}`);
  setOutputs({
    'output-dir': outDir,
    verdict: !report ? 'unknown' : report.failed > 0 ? 'failed' : report.expectations.length > 0 ? 'passed' : 'none',
    passed: report?.passed ?? 0, failed: report?.failed ?? 0, pending: report?.pending ?? 0,
    delivered: counts?.delivered ?? 0, 'deliveries-failed': counts?.failed ?? 0, 'deliveries-pending': counts?.pending ?? 0,
    'receiver-check': check ? (check.ok ? 'ok' : 'failed') : 'none',
  });
  console.log(`report in ${outDir}: ${files.map((f) => basename(f.name)).join(', ')}`);
}

main().catch(fail);
