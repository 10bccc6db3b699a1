import { describe, expect, it } from 'vitest';
import { StateMachineSchema } from '../../src/control/state-machine.schemas.js';
import { makeAjv } from '../../src/core/ajv.js';
import { ERROR_CODES } from '../../src/core/errors.js';
import { TRANSITIONS, type Trigger } from '../../src/resources/onboardings/onboardings.machine.js';
import { ONBOARDING_STATUSES, TERMINAL_STATUSES } from '../../src/resources/onboardings/onboardings.model.js';
import { harness } from '../support/harness.js';

interface TriggerJson {
  name: Trigger;
  from: string[];
  to: string | null;
  events: string[];
  refusal: { code: string; message: string };
  guards: { code: string; requires: string }[];
  chosen_when: string | null;
}

describe('GET /_emulator/state-machine', () => {
  it('answers the transition table: every status, every trigger as TRANSITIONS has it', async () => {
    const res = await harness().http().get('/_emulator/state-machine');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const matches = makeAjv(false).compile(JSON.parse(JSON.stringify(StateMachineSchema)));
    expect(matches(res.body), JSON.stringify(matches.errors)).toBe(true);
    expect(res.body.object).toBe('state_machine');
    expect(res.body.initial).toBe('pending_employee');
    expect(res.body.states).toEqual(ONBOARDING_STATUSES.map((name) => ({ name, terminal: TERMINAL_STATUSES.includes(name) })));
    expect(res.body.states.filter((s: { terminal: boolean }) => s.terminal).map((s: { name: string }) => s.name).sort()).toEqual(['cancelled', 'completed']);
    expect(res.body.terminal_refusals).toEqual({ completed: 'onboarding_completed', cancelled: 'onboarding_cancelled' });

    const triggers = res.body.triggers as TriggerJson[];
    expect(triggers.map((t) => t.name)).toEqual(Object.keys(TRANSITIONS));
    for (const t of triggers) {
      const rule = TRANSITIONS[t.name];
      expect({ from: t.from, to: t.to, events: t.events, refusal: t.refusal }, t.name).toEqual({
        from: [...rule.from], to: rule.to ?? null, events: [...rule.events], refusal: { code: rule.refusal, message: rule.refusalText },
      });
      for (const g of t.guards) {
        expect(Object.keys(ERROR_CODES), `${t.name}: ${g.code}`).toContain(g.code);
        expect(g.requires.length, `${t.name}: ${g.code}`).toBeGreaterThan(0);
      }
    }
    const byName = new Map(triggers.map((t) => [t.name, t]));
    expect(byName.get('approve_last')!.guards.map((g) => g.code)).toEqual(expect.arrayContaining(['four_eyes_violation', 'data_version_mismatch']));
    expect(byName.get('employee_open')!.guards.map((g) => g.code)).toEqual(expect.arrayContaining(['hosted_link_expired', 'hosted_link_revoked']));
    expect(byName.get('send_contract')!.guards).toEqual([]);
    expect(byName.get('approve_last')!.chosen_when).toMatch(/completes/);
  });

  it('draws the same table as a Mermaid stateDiagram-v2: an edge per from→to, the others in notes', async () => {
    const res = await harness().http().get('/_emulator/state-machine');
    const mermaid = res.body.mermaid as string;
    const lines = mermaid.trimEnd().split('\n');
    expect(lines[0]).toBe('stateDiagram-v2');
    expect(lines).toContain('  [*] --> pending_employee: create, create_and_invite');
    expect(lines).toContain('  in_review --> contract_ready: approve_last');
    expect(lines).toContain('  contract_ready --> in_review: change_terms');
    expect(lines).toContain('  processing --> action_required: payroll_fail');
    expect(lines).toContain('  completed --> [*]');
    expect(lines).toContain('  cancelled --> [*]');
    // Every trigger that moves the status is on the label of its edge, once per status it starts in.
    for (const [name, rule] of Object.entries(TRANSITIONS)) {
      if (rule.to === undefined) continue;
      for (const from of rule.from.length === 0 ? ['[*]'] : rule.from) {
        if (from === rule.to) continue;
        const edge = lines.find((l) => l.startsWith(`  ${from} --> ${rule.to}: `));
        expect(edge?.split(': ')[1]?.split(', '), `${from} --> ${rule.to}`).toContain(name);
      }
    }
    // Triggers that keep the status are listed in a note on each status they start in; no self-loop arrows.
    const note = lines.find((l) => l.startsWith('  note right of in_review: '));
    expect(note).toBe('  note right of in_review: verify_identity, approve, return_to_manager, manager_correct, change_terms keep the status');
    expect(lines).toContain('  note right of pending_employee: employee_open, new_hosted_link, new_hosted_link_sent, send_reminder keep the status');
    expect(lines.filter((l) => /^ {2}(\w+) --> \1\b/.test(l))).toEqual([]);
  });

  it('answers the diagram alone as text with ?format=mermaid, and refuses another format', async () => {
    const h = harness();
    const json = await h.http().get('/_emulator/state-machine');
    const res = await h.http().get('/_emulator/state-machine?format=mermaid');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe(json.body.mermaid);
    expect((await h.http().get('/_emulator/state-machine?format=json')).body).toEqual(json.body);
    const bad = await h.http().get('/_emulator/state-machine?format=svg');
    expect(bad.status).toBe(422);
  });
});
