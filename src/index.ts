import type { renderDocument } from './resources/documents/documents.view.js';
import type { renderEvent } from './resources/events/events.view.js';
import type { renderCreated, renderOnboarding } from './resources/onboardings/onboardings.view.js';
import type { renderOrganization } from './resources/organizations/organizations.view.js';
import type { renderDelivery, renderWebhook } from './resources/webhooks/webhooks.view.js';
import type { renderEmployee } from './resources/employees/employees.view.js';
import type { renderReviewSession } from './resources/reviews/reviews.view.js';

export { Emulator, type EmulatorOptions, type WorkspaceInput, DEFAULT_WORKSPACE } from './emulator.js';
export { createApp, type AppOptions } from './http/app.js';
export { listen, type RunningServer } from './http/server.js';
export { buildOpenApi } from './http/openapi.js';
export { parseFixtures, readFixturesFile, FixturesError } from './fixtures/fixtures.load.js';
export type { FixturesDocument } from './fixtures/fixtures.schemas.js';
export { parseScenario, readScenarioFile, readyScenarioNames, ScenarioError, ScenarioFileError, type ScenarioMistake } from './scenarios/scenario.load.js';
export { ApiError, ERROR_CODES, type ErrorCode } from './core/errors.js';
export { verifySignature, type VerifyOptions } from './delivery/signature.js';
export type { StateMachineView, TriggerView, StateView, Guard as StateMachineGuard } from './resources/onboardings/onboardings.machine.view.js';
export {
  runReceiverCheck, type ReceiverCheckInput, type ReceiverCheckSettings, type ReceiverCheckReport, type CheckResult, type CheckGrade,
} from './receiver-check/receiver-check.js';

/** In-process use from a Node test suite: see src/in-process.ts and the README. */
export { createEmulator } from './in-process.js';
export type {
  InProcessEmulator, ControlHelpers, ClockState, ClockMove, KeyInfo, CreatedWorkspace, WorkspaceInfo, ResetWorkspace,
  Fault, FaultInput, OutboxMail, OutboxFilter, InProcessOptions, WorkspaceSnapshot, RestoredWorkspace,
  ScenarioDocument, ScenarioRule, ScenarioMatch, ScenarioExpectation, ScenarioState, ScenarioValidation, ScenarioReport, ScenarioWarning, ScenarioInput, ControlClient,
} from './in-process.js';
export type { CtrfReport } from './core/ctrf.js';
export { StateFileError } from './persistence/state-file.js';
/** The pages' selector contract (docs/pages.md "Selectors for your tests"): every data-testid a test may rely on. */
export { PAGE_TEST_IDS, TEST_IDS_VERSION, type PageTestId } from './pages/test-ids.js';
/** The employee form's test values (docs/pages.md "Test values and shortcuts"): what the hosted form and the employee/submit shortcut take and refuse. */
export {
  TEST_VALUES_VERSION, VALID_DETAILS, FIELD_VALUES, TEST_DOCUMENTS, documentBytes,
  type TestValue, type FieldMistake, type TestDocument, type DocumentMistake,
} from './resources/onboardings/onboardings.test-values.js';
export type { DetailField } from './resources/onboardings/onboardings.employee-form.js';

/** The parity kit (docs/parity.md): a corpus of recorded flows replayed against a target, drift at its JSON path. */
export { runParity, paritySummary, parityJunit, parityCtrf, type ParityReport } from './parity/parity.js';
export { readCorpus, flowProblems, CorpusError, SHIPPED_CORPUS, type Flow, type CorpusStep, type CorpusRequest, type CorpusResponse, type CorpusEvents, type Provenance } from './parity/corpus.js';
export { recordFlow, RecordingRefused, type Exchange, type RecordOptions } from './parity/record.js';
export { operationsOf, type Coverage, type CoverageSet } from './parity/coverage.js';
export type { ParityTarget, ReplayOptions, FlowResult, StepResult, Verdict } from './parity/replay.js';
export type { Drift } from './parity/compare.js';

export { WELL_KNOWN_KEYS, type WellKnownKey } from './fixtures/well-known-keys.js';
export { enableTracing, type TracingHandle } from './tracing/load.js';
export { startRelay, type RelayOptions, type RelayHandle, type RelayedDelivery, type RelayEnd, type RelayNotice, type OpenedRelayInfo } from './client/relay.js';
export type { RelayInfo, RelayedMessage } from './delivery/relay.js';

/** Resources as the API renders them (JSON bodies), for typing what fetch returns. */
export type Onboarding = ReturnType<typeof renderOnboarding>;
export type CreatedOnboarding = ReturnType<typeof renderCreated>;
export type Event = ReturnType<typeof renderEvent>;
export type WebhookDelivery = ReturnType<typeof renderDelivery>;
export type Organization = ReturnType<typeof renderOrganization>;
export type Document = ReturnType<typeof renderDocument>;
export type Employee = ReturnType<typeof renderEmployee>;
/** `secret` is there only in the answers of creation and rotation. */
export type WebhookEndpoint = ReturnType<typeof renderWebhook>;
export type ReviewSession = ReturnType<typeof renderReviewSession>;
export type { OpenApproval } from './resources/approvals/approvals.service.js';
