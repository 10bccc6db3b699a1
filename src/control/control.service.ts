import { ApiError, fail } from '../core/errors.js';
import { CLOCK_LIMITS, instantOutOfRange } from '../core/clock.js';
import { parseDuration } from '../core/durations.js';
import { EMULATOR_VERSION } from '../core/product.js';
import type { Fault, FaultInput } from '../core/faults.js';
import { describeTimer, type Fired } from '../core/scheduler.js';
import type { Workspace } from '../core/workspace.js';
import type { OutboxMail } from '../resources/onboardings/onboardings.outbox.js';
import type { Static } from '../core/schema.js';
import type { ControlHost } from './control.host.js';
import type { CreateWorkspaceBody } from './control.schemas.js';
import { FixturesError } from '../fixtures/fixtures.load.js';
import { ScenarioError } from '../scenarios/scenario.load.js';
import { scenarioRefusal } from './scenario.service.js';

/**
 * The one control interface: what the dashboard, the back office and a test need, written
 * once with no transport in it. Served over HTTP under /_emulator and in-process through
 * createEmulator(), so both always behave alike (docs/architecture.md, "Add a control action").
 */
export function health(emulator: ControlHost) {
  return { status: 'ok' as const, version: EMULATOR_VERSION, started_at: emulator.startedAt, workspaces: emulator.workspaces().length };
}

export function listKeys(ws: Workspace) {
  const { store } = ws;
  return {
    data: store.keys.values().map((k) => {
      const org = store.organizations.get(k.organization_id)!;
      const user = k.user_id ? store.users.get(k.user_id) : undefined;
      return {
        key: k.key,
        name: k.name,
        environment: k.environment,
        organization_id: k.organization_id,
        partner_id: org.kind === 'partner' ? org.id : null,
        user: user ? { id: user.id, email: user.email, name: user.name, roles: [...user.roles] } : null,
        scopes: [...k.scopes],
        api_version: k.api_version,
      };
    }),
  };
}

export function describeWorkspace(ws: Workspace) {
  return {
    id: ws.id,
    created_at: ws.createdAt,
    seeded: ws.random.seeded,
    clock: { now: ws.now(), mode: ws.clock.mode },
    counts: { keys: ws.store.keys.size, onboardings: ws.store.onboardings.size, employees: ws.store.employees.size },
  };
}

/** Workspaces an emulator keeps, the default one included: each holds its fixtures, journal and timers. */
export const MAX_WORKSPACES = 100;
/** Faults (and, apart, delivery faults) a workspace keeps waiting to be played. */
export const MAX_FAULTS = 100;

export function createWorkspace(emulator: ControlHost, input: Static<typeof CreateWorkspaceBody>) {
  if (emulator.workspaces().length >= MAX_WORKSPACES) {
    throw fail('workspace_limit_reached', `An emulator keeps at most ${MAX_WORKSPACES} workspaces: delete one (DELETE /_emulator/workspaces/{id}) before creating another.`);
  }
  const start = input.clock?.start;
  const outside = start === undefined ? null : instantOutOfRange(new Date(start).getTime());
  if (outside) throw fail('parameter_invalid', `clock.start: ${outside}.`, 'clock.start');
  const ws = withFixtureErrors(() => emulator.createWorkspace(input));
  return { id: ws.id, keys: listKeys(ws).data, clock: { now: ws.now(), mode: ws.clock.mode } };
}

export function resetWorkspace(emulator: ControlHost, ws: Workspace) {
  emulator.reset(ws);
  return { ...describeWorkspace(ws), reset: true };
}

/** A bad fixtures or scenario document is the caller's mistake: 422 with every mistake listed. */
function withFixtureErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ScenarioError) throw scenarioRefusal(err, 'scenario');
    if (err instanceof FixturesError) {
      const e = new ApiError('fixtures_invalid', `The fixtures document has ${err.mistakes.length} mistake(s); see details.`, 'fixtures');
      e.details = err.mistakes.map((m) => ({ path: m.path ? `fixtures.${m.path}` : 'fixtures', message: m.message }));
      throw e;
    }
    throw err;
  }
}

/** Now, mode, pending timers, and the timer that fires next, described as in `fired`. */
export function clockState(ws: Workspace) {
  const next = ws.timers.peek();
  const nextTimer = next ? describeTimer(next) : null;
  return {
    now: ws.now(),
    mode: ws.clock.mode,
    pending_timers: ws.timers.size,
    next_due_at: nextTimer?.due_at ?? null,
    next_timer: nextTimer,
  };
}

function afterMove(ws: Workspace, fired: Fired[]) {
  return { ...clockState(ws), fired };
}

/**
 * `{"by": "90m"}`, ISO 8601 or seconds; 0 runs what is due now. Every limit is checked before
 * the clock moves, so a refused advance changes nothing.
 */
export async function advanceClock(ws: Workspace, by: unknown) {
  const ms = parseDuration(by);
  if (ms === null) {
    throw fail('parameter_invalid', 'by: give seconds (5400), a duration such as "90m", "1h30m", "2d", or ISO 8601 such as "PT90M".', 'by');
  }
  if (ms > CLOCK_LIMITS.maxAdvanceMs) {
    throw fail('parameter_invalid', `by: one advance covers at most 100 years (${CLOCK_LIMITS.maxAdvanceMs / 1000} seconds); this asks for ${ms / 1000} seconds.`, 'by');
  }
  const outside = instantOutOfRange(ws.clock.nowMs() + ms);
  if (outside) throw fail('parameter_invalid', `by: it is ${ws.now()} in this workspace, and ${outside}.`, 'by');
  return afterMove(ws, await ws.scheduler.advanceBy(ms));
}

/** Jumps to an instant within the clock's range; never backwards. */
export async function setClock(ws: Workspace, now: string) {
  const target = Date.parse(now);
  const outside = instantOutOfRange(target);
  if (outside) throw fail('parameter_invalid', `now: ${outside}.`, 'now');
  if (target < ws.clock.nowMs()) {
    throw fail('clock_backwards', `The clock never moves backwards: it is ${ws.now()} in this workspace.`, 'now');
  }
  return afterMove(ws, await ws.scheduler.advanceTo(target));
}

export interface OutboxFilter {
  onboarding_id?: string | undefined;
  /** The recipient address, compared without regard to case. */
  to?: string | undefined;
}

/** Intercepted mails, oldest first. */
export function listOutbox(ws: Workspace, filter: OutboxFilter = {}): OutboxMail[] {
  const to = filter.to?.toLowerCase();
  return ws.outbox.filter(
    (m) => (filter.onboarding_id === undefined || m.onboarding_id === filter.onboarding_id) && (to === undefined || m.to.toLowerCase() === to),
  );
}

/** Faults (src/core/faults.ts): the next N matching /v1 requests get latency, a 429, a 500 or a lost connection. */
export function addFault(ws: Workspace, input: FaultInput): Fault {
  if (ws.faults.list().length >= MAX_FAULTS) throw fail('fault_limit_reached', `A workspace keeps at most ${MAX_FAULTS} faults waiting: remove some (DELETE /_emulator/faults) first.`);
  return ws.faults.add(input, ws.ids, ws.now());
}

export function listFaults(ws: Workspace): Fault[] {
  return ws.faults.list();
}

/** One fault, with the times it has left (a fault used up is gone: 404). */
export function getFault(ws: Workspace, id: string): Fault {
  return ws.faults.get(id);
}

export function removeFault(ws: Workspace, id: string) {
  ws.faults.remove(id);
  return { id, deleted: true as const };
}

/** Removes every fault; says how many there were. */
export function clearFaults(ws: Workspace) {
  return { deleted: ws.faults.clear() };
}
