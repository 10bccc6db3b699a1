import type { Fault, FaultInput } from '../core/faults.js';
import type { DeliveryFault, DeliveryFaultInput } from '../delivery-faults/delivery-faults.js';
import type { ErrorDetail } from '../core/errors.js';
import type { WorkspaceInput } from '../emulator.js';
import type { WorkspaceSnapshot } from '../persistence/snapshot.js';
import type { StateMachineView } from '../resources/onboardings/onboardings.machine.view.js';
import type { OutboxMail } from '../resources/onboardings/onboardings.outbox.js';
import type { ScenarioDocument } from '../scenarios/scenario.schemas.js';
import type { ScenarioWarning } from '../scenarios/scenario.warnings.js';
import type * as control from './control.service.js';
import type { ExpectedCount, RequestMatcher } from '../core/journal.js';
import type * as requests from './requests.service.js';
import type { describeScenario, scenarioReport } from './scenario.service.js';
import type { restoreWorkspace } from './snapshot.service.js';
import type { ReceiverCheckReport } from '../receiver-check/receiver-check.js';
import type { ReceiverCheckBody } from './receiver-check.schemas.js';

/**
 * The control interface (/_emulator) as a client sees it, transport-free: createEmulator()'s
 * helpers implement it in process (src/in-process.ts) and the CLI over HTTP (src/cli/client.ts).
 * Its types are the return types of the control services the routes call, so a change of an
 * answer changes both clients' types at once instead of a copy going stale. Types only: the
 * entry points import it without pulling in the control layer's code.
 */

/** What GET /_emulator/requests answers: a page of recorded requests, newest first, with the total matching and the number dropped. */
export type RequestPage = ReturnType<typeof requests.findRequests>;
type RequestVerification = ReturnType<typeof requests.verifyRequests>;

export type ClockState = ReturnType<typeof control.clockState>;
export type ClockMove = Awaited<ReturnType<typeof control.advanceClock>>;
export type KeyInfo = ReturnType<typeof control.listKeys>['data'][number];
export type CreatedWorkspace = ReturnType<typeof control.createWorkspace>;
export type WorkspaceInfo = ReturnType<typeof control.describeWorkspace>;
export type ResetWorkspace = ReturnType<typeof control.resetWorkspace>;
export type RestoredWorkspace = Awaited<ReturnType<typeof restoreWorkspace>>;
/** What GET, PUT and DELETE /_emulator/scenario answer: the loaded scenario and the next planned step of each driven onboarding. */
export type ScenarioState = ReturnType<typeof describeScenario>;
/** What GET /_emulator/scenario/report answers: each expectation of the scenario passed, failed or pending, and why. */
export type ScenarioReport = ReturnType<typeof scenarioReport>;
/**
 * What POST /_emulator/scenarios/validate answers: every mistake with its path and, where it
 * helps, a hint; for a valid document, the parts that can do nothing as written.
 */
export interface ScenarioValidation {
  valid: boolean;
  name: string | null;
  rules: number;
  mistakes: ErrorDetail[];
  warnings: ScenarioWarning[];
}

/** The control actions on one workspace; every one returns a promise, so a remote transport fits. */
export interface ControlClient {
  clock: {
    /** The workspace's current instant (ISO 8601). */
    now(): Promise<string>;
    state(): Promise<ClockState>;
    /** Seconds (5400), a duration ("90m", "1h30m", "2d") or ISO 8601 ("PT90M"); fires what falls due. */
    advance(by: string | number): Promise<ClockMove>;
    /** Jumps to an instant, never backwards; fires what falls due. */
    set(iso: string): Promise<ClockMove>;
  };
  /** Intercepted mails, oldest first; filter by onboarding_id or recipient (`to`). */
  outbox(filter?: control.OutboxFilter): Promise<OutboxMail[]>;
  keys(): Promise<KeyInfo[]>;
  workspace: {
    /** A new isolated workspace: its id, keys and clock. */
    create(input?: WorkspaceInput): Promise<CreatedWorkspace>;
    /** The same interface bound to an existing workspace. */
    get(id: string): ControlClient;
    /** Back to the fixtures, clock and random sequence this workspace started with. */
    reset(): Promise<ResetWorkspace>;
  };
  /** The whole workspace as one JSON document (GET /_emulator/snapshot); waits for deliveries in flight. */
  snapshot(): Promise<WorkspaceSnapshot>;
  /**
   * Replaces the workspace's whole state with a snapshot (PUT /_emulator/snapshot). A refused
   * snapshot (snapshot_invalid, snapshot_version_unsupported, snapshot_key_conflict) changes nothing.
   */
  restore(snapshot: WorkspaceSnapshot): Promise<RestoredWorkspace>;
  /** The workspace's scenario (PUT, GET and DELETE /_emulator/scenario; docs/scenarios.md). */
  scenario: {
    /** Replaces the workspace's scenario and plans every onboarding again from now; mistakes are scenario_invalid. */
    load(document: ScenarioDocument): Promise<ScenarioState>;
    get(): Promise<ScenarioState>;
    /** Removes it; planned steps are cancelled (magic e-mail addresses still play). */
    clear(): Promise<ScenarioState>;
    /** Checks a document without loading it; never throws for mistakes. */
    validate(document: unknown): Promise<ScenarioValidation>;
    /** Its expectations (expect:), each passed, failed or pending against the workspace clock now (GET /_emulator/scenario/report). */
    report(): Promise<ScenarioReport>;
  };
  faults: {
    add(input: FaultInput): Promise<Fault>;
    list(): Promise<Fault[]>;
    remove(id: string): Promise<{ id: string; deleted: true }>;
    /** Removes every fault; says how many there were. */
    clear(): Promise<{ deleted: number }>;
  };
  /** Faults on the workspace's webhook messages (/_emulator/delivery-faults). */
  deliveryFaults: {
    add(input: DeliveryFaultInput): Promise<DeliveryFault>;
    /** Those still to play, in the order they are matched. */
    list(): Promise<DeliveryFault[]>;
    remove(id: string): Promise<{ id: string; deleted: true }>;
    /** Removes every delivery fault, a scenario's too; says how many there were. */
    clear(): Promise<{ deleted: number }>;
  };
  /** The workspace's journal of /v1 requests (GET, POST verify and DELETE /_emulator/requests). */
  requests: {
    /** Newest first; filters and paging as the query of GET /_emulator/requests. */
    find(filter?: requests.RequestsFilter): Promise<RequestPage>;
    /** How many match, against the expected count; when not as expected, the nearest requests and the fields they differ in. */
    verify(matcher: RequestMatcher, expected: ExpectedCount): Promise<RequestVerification>;
    /** Empties the journal and its dropped count; says what it held. */
    clear(): Promise<{ deleted: number; dropped: number }>;
  };
  /**
   * The onboarding life cycle as its transition table, with a Mermaid diagram (GET
   * /_emulator/state-machine; docs/state-machine.md). The same for every workspace.
   */
  stateMachine(): Promise<StateMachineView>;
  /**
   * Grades a webhook receiver (POST /_emulator/receiver-checks, docs/receiver-check.md): real
   * signed messages sent to `url`, each answer judged; under the emulator's webhook URL policy.
   */
  receiverCheck(input: ReceiverCheckBody): Promise<ReceiverCheckReport>;
}
