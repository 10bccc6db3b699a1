import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiError as RefusedError } from '../../core/errors.js';
import { receiverCheckCtrf as ctrfOf, receiverCheckJunit as junitOf } from '../../receiver-check/receiver-check.report.js';
import { DEFAULT_BURST, MAX_BURST, MAX_TIMEOUT_MS, runReceiverCheck, type CheckResult, type ReceiverCheckReport } from '../../receiver-check/receiver-check.js';
import { action, printReportAs, printTable, reportFormat, reportFormatOption, usageExit, type ReportFormat } from '../client.js';
import { UsageError } from '../../client/http.js';

interface ReceiverCheckOptions {
  url: string;
  secret: string;
  previousSecret?: string;
  timeoutMs?: string;
  burst?: string;
  json?: boolean;
  junit?: string;
  ctrf?: string;
  format?: ReportFormat;
}

/** The flag's digits as a number (anything else NaN): the run itself checks the range, as for every caller. */
const digits = (raw: string | undefined): number | undefined => (raw === undefined ? undefined : /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN);

/** The flags the run's refusals name by their field: `burst: must be ...` is `--burst must be ...`. */
const FLAGS: Record<string, string> = { burst: '--burst', timeout_ms: '--timeout-ms' };
const asUsage = (err: RefusedError): UsageError => {
  const flag = err.param === undefined ? undefined : FLAGS[err.param];
  return new UsageError(flag && err.message.startsWith(`${err.param}: `) ? `${flag} ${err.message.slice(err.param!.length + 2)}` : err.message);
};

/** The report's files as asked (JUnit XML, CTRF), each written whole or refused as a usage mistake. */
function writeReports(o: ReceiverCheckOptions, report: ReceiverCheckReport): void {
  const files: [string | undefined, () => string][] = [
    [o.junit, () => junitOf(report)],
    [o.ctrf, () => `${JSON.stringify(ctrfOf(report), null, 2)}\n`],
  ];
  for (const [file, text] of files) {
    if (!file) continue;
    try {
      writeFileSync(file, text());
    } catch (err) {
      throw new UsageError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
}

function summary(report: ReceiverCheckReport): string {
  const count = (grade: CheckResult['grade']) => report.checks.filter((c) => c.grade === grade).length;
  const parts = [`${count('passed')} passed`, `${count('failed')} failed`, `${count('warning')} warnings`, `${count('skipped')} skipped`];
  const failedRequired = report.checks.filter((c) => c.required && c.grade === 'failed').map((c) => c.id);
  const verdict = report.ok ? 'ok' : `FAILED (required: ${failedRequired.join(', ')})`;
  return `receiver check ${verdict}: ${parts.join(', ')} in ${report.duration_ms} ms`;
}

/**
 * `receiver-check`: the receiver check run by the CLI itself, no emulator needed. Any address
 * the URL parser reads as http(s) is checked (the local policy): the receiver usually runs
 * beside the CI job. Exit 1 when a required check failed, 2 on a usage mistake.
 */
export function registerReceiverCheck(program: Command): void {
  program
    .command('receiver-check')
    .description('Grade a webhook receiver: send it real signed messages and judge each answer (no emulator needed)')
    .requiredOption('--url <url>', 'the receiver\'s address, e.g. http://127.0.0.1:3000/webhooks')
    .requiredOption('--secret <secret>', 'the secret the receiver verifies with (whsec_...)')
    .option('--previous-secret <secret>', 'the receiver\'s previous secret, when it has one (the rotation check co-signs with it)')
    .option('--timeout-ms <ms>', `how long each answer may take (1 to ${MAX_TIMEOUT_MS}; default ${MAX_TIMEOUT_MS}, the spec's wait)`)
    .option('--burst <n>', `messages sent at once in the burst check (1 to ${MAX_BURST}; default ${DEFAULT_BURST})`)
    .option('--json', 'print the report as JSON instead of a table')
    .option('--junit <file>', 'also write the report as JUnit XML, one testcase per check')
    .option('--ctrf <file>', 'also write the report as CTRF JSON (Common Test Report Format), one test per check')
    .addOption(reportFormatOption())
    .addHelpText('after', [
      '',
      'Exit status: 0 when every required check passed, 1 when one failed, 2 on a usage mistake.',
      '',
      'Example:',
      '  onboarding-emulator receiver-check --url http://127.0.0.1:3000/webhooks --secret "$WEBHOOK_SECRET" --junit receiver-check.xml',
    ].join('\n'))
    .exitOverride(usageExit)
    .action(action(async (o: ReceiverCheckOptions) => {
      const format = reportFormat(o);
      const timeoutMs = digits(o.timeoutMs);
      const burst = digits(o.burst);
      let report: ReceiverCheckReport;
      try {
        report = await runReceiverCheck({
          url: o.url,
          secret: o.secret,
          ...(o.previousSecret !== undefined ? { previousSecret: o.previousSecret } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          ...(burst !== undefined ? { burst } : {}),
        });
      } catch (err) {
        // The run refuses its input (an address it would not send to) before sending anything.
        if (err instanceof RefusedError) throw asUsage(err);
        throw err;
      }
      writeReports(o, report);
      printReportAs(format, {
        json: () => report,
        junit: () => junitOf(report),
        ctrf: () => ctrfOf(report),
        table: () => {
          process.stdout.write(`receiver ${report.url}\n\n`);
          printTable(
            ['check', 'required', 'grade', 'status', 'ms', 'reason'],
            report.checks.map((c) => [`${c.id} ${c.name}`, c.required ? 'yes' : 'no', c.grade, c.status, c.ms, c.reason]),
          );
          process.stdout.write(`\n${summary(report)}\n`);
        },
      });
      if (!report.ok) process.exitCode = 1;
    }));
}
