import { afterEach, describe, expect, it } from 'vitest';
import { httpControl } from '../../src/client/http.js';
import { createEmulator, type ControlClient, type InProcessEmulator } from '../../src/index.js';
import { TRANSITIONS } from '../../src/resources/onboardings/onboardings.machine.js';

const started: InProcessEmulator[] = [];

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

/** The same answer through both transports of the control interface, whichever workspace asks. */
async function exercise(control: ControlClient) {
  const machine = await control.stateMachine();
  expect(machine.object).toBe('state_machine');
  expect(machine.triggers.map((t) => t.name)).toEqual(Object.keys(TRANSITIONS));
  expect(machine.mermaid).toContain('  in_review --> contract_ready: approve_last\n');
  const other = await control.workspace.create();
  expect(await control.workspace.get(other.id).stateMachine()).toEqual(machine);
  return machine;
}

describe('the state machine through the control interface', () => {
  it('answers the same in process and over HTTP', async () => {
    const em = createEmulator({ seed: 1 });
    started.push(em);
    const { url } = await em.start(0);
    const local = await exercise(em);
    expect(await exercise(httpControl({ url }))).toEqual(local);
  });
});
