import { Option, type Command } from 'commander';
import { ApiError as EmulatorError, ERROR_CODES, type ErrorCode } from '../../core/errors.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../core/product.js';
import type { ControlMethods } from '../../control/control.client.js';
import { localMethods } from '../../control/control.local.js';
import { DEFAULT_WORKSPACE } from '../../emulator.js';
import { buildOpenApi } from '../../http/openapi.js';
import { createEmulator, type InProcessEmulator } from '../../in-process.js';
import type { McpServerSession } from '../../mcp/mcp.server.js';
import { parsePort, scenarioFiles } from '../../config.js';
import { ApiError, httpControl, request, UsageError } from '../../client/http.js';
import { usageExit } from '../client.js';

/**
 * `onboarding-emulator mcp`: the control interface for a coding agent, over MCP on stdio. By
 * default an emulator starts in this process and listens (127.0.0.1, --port) for the code under
 * test; with --url the session attaches to a running one. stdout carries the protocol alone:
 * every other word goes to stderr. Exit codes: 0 when the agent closes the session, 1 when the
 * emulator cannot start, 2 for a usage mistake or an emulator --url does not reach.
 */
interface McpOptions {
  url?: string;
  workspace: string;
  port: string;
  host: string;
  fixtures?: string;
  scenario?: string[];
  seed?: string;
}

/** The HTTP client's refusals as the emulator's own errors, so a tool answers the same envelope either way. */
function asEmulatorErrors<T>(methods: T): T {
  if (typeof methods === 'function') {
    return (async (...args: unknown[]) => {
      try {
        return await (methods as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const code = (err.code !== undefined && err.code in ERROR_CODES ? err.code : 'internal_error') as ErrorCode;
        const e = new EmulatorError(code, err.message, err.param);
        if (err.details.length > 0) e.details = err.details;
        throw e;
      }
    }) as T;
  }
  if (typeof methods !== 'object' || methods === null) return methods;
  return Object.fromEntries(Object.entries(methods).map(([k, v]) => [k, asEmulatorErrors(v)])) as T;
}

/** Attached to a running emulator: checked once (exit 2 when nothing answers), then every call over HTTP. */
async function attached(url: string, workspace: string): Promise<McpServerSession> {
  const options = { url };
  const client = httpControl(options, workspace);
  try {
    await client.workspace.describe(workspace);
  } catch (err) {
    if (err instanceof ApiError) throw new UsageError(`workspace ${workspace}: ${err.message}`);
    throw err;
  }
  return {
    workspaceId: workspace,
    methods: asEmulatorErrors<ControlMethods>(client),
    openapi: () => request(options, 'GET', '/openapi.json'),
  };
}

async function inProcess(options: McpOptions): Promise<{ session: McpServerSession; em: InProcessEmulator }> {
  if (options.workspace !== DEFAULT_WORKSPACE) throw new UsageError(`an emulator started by mcp has only the workspace ${DEFAULT_WORKSPACE}; use --url to attach to one that has ${options.workspace}`);
  let port: number;
  try {
    port = parsePort(options.port);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const scenarios = scenarioFiles(options.scenario);
  const em = createEmulator({
    ...(options.fixtures ? { fixtures: options.fixtures } : {}),
    ...(scenarios.length ? { scenario: scenarios } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  const { url } = await em.start(port, options.host);
  process.stderr.write(`onboarding-emulator mcp: an emulator in this process at ${url} (workspace ${DEFAULT_WORKSPACE}); MCP on stdio\n`);
  // The rows' methods as the HTTP endpoint runs them (not the helpers' file reading): the same checks on both transports.
  const methods = localMethods(em.emulator, DEFAULT_WORKSPACE, () => ({ requestId: '', baseUrl: url, head: false, apiDocument: buildOpenApi }));
  return { session: { workspaceId: DEFAULT_WORKSPACE, methods, openapi: () => Promise.resolve(buildOpenApi(url)) }, em };
}

export function registerMcp(program: Command): void {
  const cmd = program
    .command('mcp')
    .description('Serve the control interface to a coding agent over MCP (stdio): an emulator in this process, or a running one with --url')
    .option('--url <url>', 'attach to the running emulator at this URL instead of starting one')
    .option('--workspace <id>', 'the one workspace the session acts on', DEFAULT_WORKSPACE)
    .option('--port <port>', 'in process: the port the emulator listens on for the code under test (0: a free one)', String(DEFAULT_PORT))
    .option('--host <host>', 'in process: the address it listens on', DEFAULT_HOST)
    .option('-f, --fixtures <file>', 'in process: the fixtures document of the default workspace')
    .addOption(new Option('--scenario <file>', 'in process: a scenario file or ready scenario to play (repeatable)').argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]))
    .option('--seed <seed>', 'in process: makes ids, codes and request ids reproducible')
    .exitOverride(usageExit);
  cmd.action(async (options: McpOptions) => {
    // The protocol owns stdout: whatever else prints goes to stderr.
    console.log = console.error;
    console.info = console.error;
    let em: InProcessEmulator | undefined;
    let session: McpServerSession;
    try {
      if (options.url !== undefined) session = await attached(options.url, options.workspace);
      else ({ session, em } = await inProcess(options));
    } catch (err) {
      process.stderr.write(`onboarding-emulator mcp: ${(err as Error).message}\n`);
      process.exit(err instanceof UsageError ? 2 : 1);
    }
    const [{ serveStdio }, { createMcpServer }] = await Promise.all([import('@modelcontextprotocol/server/stdio'), import('../../mcp/mcp.server.js')]);
    // The SDK's stdio entry takes the era from the opening message (initialize, or a stateless
    // request such as server/discover) and serves the connection from one server of this session.
    const served = serveStdio(() => createMcpServer(session), { onerror: (err) => process.stderr.write(`onboarding-emulator mcp: ${err.message}\n`) });
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void served.close().then(() => em?.close()).then(() => process.exit(0), () => process.exit(1));
    };
    process.stdin.once('end', stop);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
