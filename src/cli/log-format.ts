import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

/** The values of --log-format and EMULATOR_LOG_FORMAT (their choices in SERVE_OPTIONS). */
type LogFormat = 'pretty' | 'json';

/**
 * Without --log-format: pretty for a person at a terminal, JSON everywhere else (a pipe, a file,
 * a CI log, `docker logs` of a container started without -t), where a machine reads the lines.
 */
export function defaultLogFormat(stdoutIsTerminal: boolean | undefined): LogFormat {
  return stdoutIsTerminal === true ? 'pretty' : 'json';
}

interface Entry {
  req?: { id?: string; method?: string; path?: string };
  res?: { status?: number | null; dropped?: boolean };
  duration_ms?: number;
}

/**
 * A request entry on one line (`request GET /v1/onboardings 200 3.1 ms req_...`) instead of
 * three nested objects; the other entries keep their fields below the message.
 */
function requestLine(log: Record<string, unknown>, messageKey: string): string {
  const { req, res, duration_ms: ms } = log as Entry;
  const parts = [String(log[messageKey] ?? '')];
  if (req?.method) parts.push(req.method);
  if (req?.path) parts.push(req.path);
  if (res) parts.push(res.status === null || res.status === undefined ? 'no answer' : String(res.status));
  if (typeof ms === 'number') parts.push(`${ms.toFixed(1)} ms`);
  if (req?.id) parts.push(req.id);
  return parts.join(' ');
}

/**
 * The `serve` logger. Pretty output goes through pino-pretty as a synchronous stream in this
 * process (not a worker-thread transport): a line is on stdout when the call returns, so the
 * ready line and the last lines before an exit are never lost, and there is no thread to start
 * or flush. What is logged is the same in both formats, secrets already masked by the callers.
 */
export function serveLogger(level: string, format: LogFormat): Logger {
  const options = { level, base: { service: 'onboarding-emulator' } };
  if (format === 'json') return pino(options);
  // Loaded here, not imported: the CLI bundle leaves it out, so a JSON start never reads it.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pino(
    options,
    pretty({
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service,req,res,duration_ms',
      messageFormat: requestLine,
    }),
  );
}
