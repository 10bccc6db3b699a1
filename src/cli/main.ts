#!/usr/bin/env node
import { Command, Option } from 'commander';
import { SERVE_OPTIONS, type ServeOptions } from '../config.js';
import { EMULATOR_VERSION } from '../core/product.js';
import { Emulator } from '../emulator.js';
import { FixturesError } from '../fixtures/fixtures.load.js';
import { maskSecrets } from '../core/mask.js';
import { loggedError } from '../http/request-log.js';
import { listen } from '../http/server.js';
import { openStateFile, repairMessage, StateFileError } from '../persistence/state-file.js';
import { usageExit } from './client.js';
import { drain } from './drain.js';
import { defaultLogFormat, serveLogger } from './log-format.js';
import { readyAddress } from './ready-address.js';
import { runningInContainer } from '../delivery/container.js';
import { ConfigError, dropEmptyVariables, serveSettings, type ServeSettings } from './serve-settings.js';
import { EXPLORER_PATH } from '../pages/explorer/explorer.paths.js';
import { INSPECTOR_PATH } from '../pages/inspector/inspector.paths.js';
import { ScenarioError } from '../scenarios/scenario.load.js';
import { scenarioWarnings } from '../scenarios/scenario.warnings.js';
import { enableTracing } from '../tracing/load.js';
import { registerClock } from './commands/clock.js';
import { registerControl } from './commands/control.js';
import { registerEvents } from './commands/events.js';
import { registerListen } from './commands/listen.js';
import { registerMcp } from './commands/mcp.js';
import { registerOnboardings } from './commands/onboardings.js';
import { registerOutbox } from './commands/outbox.js';
import { registerReceiverCheck } from './commands/receiver-check.js';
import { registerRequests } from './commands/requests.js';
import { registerScenario } from './commands/scenario.js';
import { registerSnapshot } from './commands/snapshot.js';
import { registerWorkspace } from './commands/workspace.js';
import { registerFaults } from './commands/faults.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerWait } from './commands/wait.js';
import { registerPostman } from './commands/postman.js';
import { registerTrigger } from './commands/trigger.js';
import { registerParity } from './commands/parity.js';

// `... | head -3` closes the pipe before the output is written: stop quietly, as other
// command-line tools do, instead of dying on an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

const program = new Command('onboarding-emulator')
  .description('A local emulator of the hosted employee-onboarding API, for integration tests and exploration.')
  .version(EMULATOR_VERSION);

// The default command: options alone start the server (`onboarding-emulator --scenario happy-path`),
// as they do after the image name in `docker run IMAGE --scenario happy-path`.
const serve = program
  .command('serve', { isDefault: true })
  .description('Run the emulator with the default workspace loaded from the fixtures (the default command).')
  .addHelpText('after', '\nEvery option can also be set through the environment variable shown beside it.');
dropEmptyVariables(process.env);
for (const spec of SERVE_OPTIONS) {
  const option = new Option(spec.flag, spec.description).env(spec.env);
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.choices) option.choices(spec.choices);
  if (spec.repeatable) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  serve.addOption(option);
}

/** The options checked, all of them before anything starts; else one line naming the wrong one, and exit status 2. */
function checked(raw: Record<string, unknown>): ServeSettings {
  try {
    return serveSettings(raw as unknown as ServeOptions, (key) => serve.getOptionValueSource(key), process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`onboarding-emulator: ${err.message}\n`);
    process.exit(2);
  }
}

serve.action(async (raw: Record<string, unknown>) => {
  const options = checked(raw);
  const logger = serveLogger(options.logLevel, options.logFormat ?? defaultLogFormat(process.stdout.isTTY));
  try {
    const { startTime, drainMs, journalLimit, publicUrl, scenarios } = options;
    // OpenTelemetry only when the environment names an OTLP endpoint (docs/tracing.md); loaded only
    // then. Its variables are read here, before the port opens; a bad one is a warning, never a stop.
    const tracing = await enableTracing(process.env);
    const emulator = new Emulator({
      ...(options.fixtures ? { fixtures: options.fixtures } : {}),
      ...(scenarios.length ? { scenario: scenarios } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      publicUrl,
      journalLimit,
      clock: { mode: options.clock, ...(startTime ? { start: startTime } : {}) },
      webhooks: {
        urlPolicy: options.webhookUrlPolicy,
        signatureClock: options.signatureClock,
        timeoutMs: options.webhookTimeoutMs,
      },
    });
    // Logged, not refused: the scenario is valid; these parts of it can do nothing as written.
    const started = scenarios.length ? emulator.defaultWorkspace.scenario : null;
    for (const w of started ? scenarioWarnings(started.document) : []) {
      logger.warn({ scenario: started!.source, path: w.path }, maskSecrets(`scenario warning: ${w.path} ${w.message}`));
    }
    // Before the port opens: a bad state file stops the start and is left as it is.
    const persisted = options.stateFile
      ? openStateFile(emulator, { path: options.stateFile, reset: options.resetState, repair: options.stateFileRepair, onError: (err) => logger.error({ err: loggedError(err) }, 'state file not written') })
      : undefined;
    if (persisted?.repaired) logger.warn({ state_file: persisted.path, repair: persisted.repaired }, repairMessage(persisted.repaired));
    const running = await listen(emulator, {
      port: options.port,
      host: options.host,
      logger,
      publicUrl,
      ui: options.ui,
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      // Any request may change the default workspace (a GET runs due timers): every answer waits for the write holding it.
      ...(persisted ? { commit: () => persisted.commit() } : {}),
    });
    // The ready line is written at any level but silent: scripts and tests wait for it.
    if (options.logLevel !== 'silent') {
      const stateInfo = persisted ? { state_file: persisted.path, state: persisted.start, ...(persisted.scenarioReplaced ? { state_scenario: 'replaced by --scenario' } : {}) } : {};
      const address = readyAddress({ local: running.url, host: options.host, publicUrl: emulator.publicUrl, inContainer: runningInContainer() });
      // What a person opens next in a browser, named where they look first.
      const pages = !options.ui ? {} : { inspector: `${address.base}${INSPECTOR_PATH}`, explorer: `${address.base}${EXPLORER_PATH}` };
      const traces = tracing ? { traces: tracing.serviceName } : {};
      logger.child({}, { level: 'info' }).info({ ...address.fields, ...pages, seed: options.seed ?? null, clock: options.clock, ...stateInfo, ...traces }, address.message);
    }
    // A clean stop answers what is in flight, then writes the state file last; a second signal stops at once.
    const stop = () =>
      void drain(emulator, running, drainMs, logger)
        .then(() => persisted?.close())
        // The spans still waiting are sent before the process ends.
        .then(() => tracing?.shutdown())
        .then(
          () => process.exit(0),
          (err: unknown) => {
            console.error(`onboarding-emulator: ${(err as Error).message}`);
            process.exit(1);
          },
        );
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (err) {
    if (err instanceof FixturesError || err instanceof ScenarioError) console.error(err.message);
    else if (err instanceof StateFileError) {
      console.error(`onboarding-emulator: ${err.message}`);
      if (err.hint) console.error(err.hint);
    } else console.error(`onboarding-emulator: ${(err as Error).message}`);
    process.exit(1);
  }
});

// Client commands against a running emulator (--url / EMULATOR_URL, --key / EMULATOR_KEY).
registerClock(program);
registerOnboardings(program);
registerOutbox(program);
registerEvents(program);
registerRequests(program);
registerWorkspace(program);
registerFaults(program);
registerWebhooks(program);
registerWait(program);
registerPostman(program);
registerTrigger(program);
registerParity(program);
registerSnapshot(program);
registerScenario(program);
registerControl(program);
// The control interface for a coding agent, over MCP on stdio.
registerMcp(program);
// Runs beside the receiver until Ctrl-C: the relay for an emulator that cannot reach it.
registerListen(program);
// Runs in this process against a receiver; needs no emulator.
registerReceiverCheck(program);

// A first word that names no command is a mistake, not an argument of the default command.
const first = process.argv[2];
const commands = new Set(['help', ...program.commands.flatMap((c) => [c.name(), ...c.aliases()])]);
if (first !== undefined && !first.startsWith('-') && !commands.has(first)) {
  process.stderr.write(`error: unknown command '${first}' (onboarding-emulator --help lists them)\n`);
  process.exit(2);
}
// An unknown or malformed option of serve is a usage mistake too.
serve.exitOverride(usageExit);

await program.parseAsync(process.argv);
