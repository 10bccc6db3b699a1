import { parseDuration } from '../core/durations.js';
import { ApiError } from '../core/errors.js';
import { reportedAt } from '../core/validation.js';
import type { Workspace } from '../core/workspace.js';
import { DELIVERY_FAULT_LIMITS, DeliveryFaultList, type DeliveryFaultInput } from '../delivery-faults/delivery-faults.js';
import { DELIVERY_FAULTS_MAX, type ScenarioDocument, type ScenarioDeliveryFault } from './scenario.schemas.js';

/**
 * A scenario's `delivery_faults`: delivery faults (src/delivery-faults/delivery-faults.ts) declared in the file,
 * their windows counted from when the scenario is loaded. Loading a scenario (and resetting
 * its workspace) replaces the faults the scenario before it declared; faults added through
 * the API stay.
 */

const ms = (delay: number | string | undefined): number | undefined => (delay === undefined ? undefined : parseDuration(delay) ?? undefined);

/** The API's input for one declared fault, for a scenario loaded at `loadedMs`. */
function inputOf(fault: ScenarioDeliveryFault, loadedMs: number): DeliveryFaultInput {
  const start = loadedMs + (ms(fault.after) ?? 0);
  const length = ms(fault.for);
  return {
    kind: fault.kind,
    ...(fault.url !== undefined ? { url: fault.url } : {}),
    ...(fault.count !== undefined ? { count: fault.count } : {}),
    ...(fault.after !== undefined ? { from: new Date(start).toISOString() } : {}),
    ...(length !== undefined ? { until: new Date(start + length).toISOString() } : {}),
    ...(fault.delay !== undefined ? { delay_ms: ms(fault.delay) } : {}),
  };
}

/** Where a refusal's parameter is written in a scenario file. */
const FIELD: Record<string, string> = { delay_ms: 'delay', from: 'after', until: 'for' };

/**
 * What the API would refuse in the declared faults, as mistakes with their paths in the file.
 * A delay that does not parse is reported by the scenario's delay check, not again here.
 */
export function faultMistakes(doc: unknown, reported: readonly { path: string }[]): { path: string; message: string }[] {
  const mistakes: { path: string; message: string }[] = [];
  const scratch = new DeliveryFaultList();
  const ids = { id: () => 'dft_check', token: () => '', code: () => '' };
  const declared = (doc as Partial<ScenarioDocument> | null)?.delivery_faults;
  if (!Array.isArray(declared)) return [];
  const isReported = reportedAt(reported);
  // Past the schema's limit the list is refused as it is: its entries need no more reading.
  declared.slice(0, DELIVERY_FAULTS_MAX).forEach((fault: ScenarioDeliveryFault, i) => {
    const at = (field: string) => `delivery_faults[${i}]${field ? `.${field}` : ''}`;
    // A fault whose shape is already wrong is reported by the schema alone.
    if (isReported(at(''))) return;
    if ([fault.after, fault.for, fault.delay].some((d) => d !== undefined && ms(d) === undefined)) return;
    const delay = ms(fault.delay);
    if (delay !== undefined && (delay < 1 || delay > DELIVERY_FAULT_LIMITS.delayMs)) {
      mistakes.push({ path: at('delay'), message: 'must be longer than 0 and at most 24 hours' });
      return;
    }
    if (ms(fault.for) === 0) {
      mistakes.push({ path: at('for'), message: 'must be longer than 0' });
      return;
    }
    try {
      scratch.add(inputOf(fault, 0), ids, 0);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      mistakes.push({ path: at(err.param ? (FIELD[err.param] ?? err.param) : ''), message: err.message.replace(/^[a-z_]+: /, '').replaceAll('delay_ms', 'delay') });
    }
  });
  return mistakes;
}

/** Replaces the workspace's scenario-declared faults with those of its current scenario, counted from now. */
export function installScenarioFaults(ws: Workspace): void {
  ws.deliveryFaults.clearSource('scenario');
  const now = ws.clock.nowMs();
  (ws.scenario?.document.delivery_faults ?? []).forEach((fault, i) => {
    // Stable ids: loading a scenario draws nothing from the workspace's id sequence.
    ws.deliveryFaults.add(inputOf(fault, now), ws.ids, now, 'scenario', `dft_scenario_${i + 1}`);
  });
}
