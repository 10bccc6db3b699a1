/*
 * The shapes the inspector's script (inspector.ts) works with: the fields of the control API's
 * answers it reads, nothing more, and the page's own state. Types only, global to the browser
 * scripts (classic scripts, no import or export); nothing of it runs.
 */

// ----- The control API's answers, as far as the page reads them.
interface ListOf<T> { data: T[] }
interface WorkspaceInfo { id: string }
/** The clock's next timer: kind, due time, then its payload's fields (open: a new kind brings its own). */
interface TimerInfo { kind: string; due_at: string; [payload: string]: unknown }
interface ClockInfo {
  now: string;
  mode: string;
  pending_timers: number;
  next_due_at: string | null;
  next_timer: TimerInfo | null;
}
interface EmployeeName { first_name: string; last_name: string }
interface OnboardingSummary {
  id: string;
  status: string;
  waiting_on: string[];
  data_version: number;
  environment: string;
  employee: EmployeeName;
}
interface OnboardingList extends ListOf<OnboardingSummary> { total: number }
interface OnboardingFull {
  id: string;
  status: string;
  waiting_on: string[];
  data_version: number;
  reference: string | null;
  source: string;
  employee: EmployeeName;
  employment: { hourly_wage_cents?: number };
  approvals: { required: string[] };
  hosted_link: { status: string; expires_at: string } | null;
}
interface AllowedAction { action: string; path: string; summary: string }
interface TimelineEntry {
  at: string;
  trigger: string | null;
  from: string | null;
  to: string;
  data_version: number | null;
  detail: string | null;
  events: { id: string; type: string }[];
}
interface ApprovalInfo { role: string; user_id: string; user_name: string | null; data_version: number; valid: boolean; at: string }
interface PersonInfo { id: string; name: string; roles: string[] }
interface OnboardingDetail {
  onboarding: OnboardingFull;
  organization_id: string;
  partner_id: string | null;
  environment: string;
  allowed_actions: AllowedAction[];
  timeline: TimelineEntry[];
  approvals: ApprovalInfo[];
  people: PersonInfo[];
}
interface EventInfo {
  id: string;
  type: string;
  created_at: string;
  environment: string;
  data: { onboarding_id: string; data_version: number | null };
  deliveries: number;
}
/** A page of events: `newer` of the `total` are above it, so there are older ones when newer + data.length < total. */
interface EventPage extends ListOf<EventInfo> { total: number; newer: number }
/** What an injected delivery fault did (POST /_emulator/delivery-faults). */
interface InjectedInfo {
  kind: string;
  delay_ms?: number;
  duplicate_id?: string;
  duplicate_of?: string;
  released_by?: string | null;
  received_status_code?: number | null;
}
interface AttemptInfo { at: string; status_code: number | null; error: string | null; manual: boolean; next_attempt_at: string | null; injected?: InjectedInfo; trace_id?: string }
interface DeliveryInfo {
  id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  attempt_log: AttemptInfo[];
  injected?: InjectedInfo;
  /** With tracing on: the trace of the span that made the event. */
  trace_id?: string;
}
interface WebhookInfo {
  id: string;
  url: string;
  status: string;
  organization_id: string;
  environment: string;
  events: string[];
  dead_in_a_row: number;
  deliveries_total: number;
  deliveries: DeliveryInfo[];
  /** Set by the page, not the API: the deliveries are every one of the address's ("Show all"). */
  all?: boolean;
}
interface DeliveryPage extends ListOf<DeliveryInfo> { has_more: boolean; next_cursor: string | null }
interface MailInfo { to: string; subject: string; kind: string; code: string | null; link: string | null; sent_at: string }
interface ScenarioInfo {
  loaded: boolean;
  name: string | null;
  source: string | null;
  loaded_at: string | null;
  document: { rules?: unknown[] } | null;
  planned: { onboarding_id: string; step: string; due_at: string }[];
  magic_addresses: unknown[];
}
/** A /v1 request as the journal recorded it (keys masked there). */
interface RecordedRequest {
  id: string;
  at: string;
  key: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: { idempotency_key: string | null; service_version: string | null; service_organization: string | null };
  body: unknown;
  status: number;
  error_code: string | null;
  replayed: boolean;
  answered: boolean;
  duration_ms: number | null;
  onboarding_ids: string[];
  /** With tracing on: the trace of the request's span. */
  trace_id?: string;
}
interface RecordedRequestPage extends ListOf<RecordedRequest> { has_more: boolean; next_cursor: string | null; total: number; dropped: number }
/** The requests panel's read: a page, or the refusal of its filters (shown in the panel, not stopping the others). */
type RequestRead = { page: RecordedRequestPage; filtered: boolean } | { refused: string };
interface ActionAnswer { onboarding: { id: string; status: string } }
interface RetryAnswer { id: string; status: string; last_status_code: number | null }
interface AdvanceAnswer { now: string; fired: unknown[] }
/** A refused request: the envelope's code when the answer had one. */
type ApiError = Error & { status: number; code: string | null };

// ----- The page's own types.
type Plain = string | number | boolean | null | undefined;
type Listener = (event: Event) => void;
/** `on<event>` keys take a listener; `text` is the text content; every other key is a plain attribute. */
interface Attrs { [key: `on${string}`]: Listener; [key: string]: Plain | Listener }
type Child = Node | string | number | false | null | undefined | Child[];
type FormBody = Record<string, string | number>;
interface PageState {
  workspace: string;
  onboarding: string | null;
  /** Per section, the JSON it was last drawn from. */
  shown: Record<string, string>;
  /** The addresses whose every delivery is shown ("Show all"). */
  allDeliveries: Record<string, true>;
  /**
   * The page of events shown: null for the latest, which follows new events; otherwise held by
   * the event at its edge, so new events do not move it while the viewer reads older ones.
   */
  events: { starting_after: string } | { ending_before: string } | null;
  /**
   * The requests panel: its filters (query parameters of GET /_emulator/requests), the cursors
   * of the pages above the one shown (empty: the latest, which follows new requests; the
   * journal pages with starting_after only, so "Newer" goes back one cursor), and the entries
   * whose query, headers and body are open.
   */
  requests: { filter: Record<string, string>; cursors: string[]; open: Record<string, true> };
  busy: boolean;
  current: Promise<void>;
  live: boolean;
}
