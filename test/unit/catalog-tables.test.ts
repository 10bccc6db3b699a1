import { describe, expect, it } from 'vitest';
import { sandboxCatalog, type CatalogEntry, type CatalogSection } from '../../src/control/catalog.js';
import { onboardingActionRoutes } from '../../src/control/onboarding-actions.routes.js';
import { ACTIONS } from '../../src/control/inspect.service.js';
import { ACTION_NAMES } from '../../src/control/inspect.schemas.js';
import { ERROR_CODES } from '../../src/core/errors.js';
import { TRANSITIONS, type Trigger } from '../../src/resources/onboardings/onboardings.machine.js';
import { findPersonalData, PERSONAL_DATA_KINDS, TEST_IDENTITY } from '../../src/resources/onboardings/onboardings.personal-data.js';
import { MAGIC_ADDRESSES } from '../../src/scenarios/scenario.magic.js';
import { checkBsn, checkIban } from '../../src/resources/onboardings/onboardings.employee-form.js';

/** The catalogue against the tables the code runs on: nothing left out, nothing twice. */
const catalog = sandboxCatalog();
const of = (section: CatalogSection) => catalog.entries.filter((e) => e.section === section);
const names = (entries: CatalogEntry[]) => entries.map((e) => e.name);
const ACTION_PREFIX = '/_emulator/onboardings/:id/';

describe('the sandbox catalogue walks the tables the code uses', () => {
  it('lists every magic e-mail address once, with its summary from the address table', () => {
    const magic = of('magic_address');
    expect(names(magic)).toEqual(Object.keys(MAGIC_ADDRESSES));
    for (const e of magic) {
      expect(e.input).toBe(`${e.name}@example.com`);
      expect(e.outcome).toBe(MAGIC_ADDRESSES[e.name as keyof typeof MAGIC_ADDRESSES].summary);
      expect(e.example[0]!.body!.employee).toMatchObject({ email: e.input });
    }
  });

  it('lists every control action row once, under its own path, firing the trigger the inspector table names', () => {
    const actionRows = onboardingActionRoutes.filter((r) => r.path.startsWith(ACTION_PREFIX)).map((r) => r.path.slice(ACTION_PREFIX.length));
    expect(actionRows.length).toBeGreaterThan(10);
    const actions = of('control_action');
    expect(names(actions).sort()).toEqual([...actionRows].sort());
    expect(names(actions).sort()).toEqual([...ACTION_NAMES].sort());
    for (const e of actions) {
      expect(e.trigger).toBe(ACTIONS[e.name as keyof typeof ACTIONS].trigger);
      expect(e.input).toBe(`POST /_emulator/onboardings/{id}/${e.name}`);
      expect(e.example.at(-1)!.path).toBe(`/_emulator/onboardings/{id}/${e.name}`);
    }
  });

  it('names every transition of the state machine exactly once, with its statuses, events and refusal', () => {
    const fired = [...of('control_action'), ...of('transition')];
    const triggers = fired.map((e) => e.trigger!);
    expect([...triggers].sort()).toEqual(Object.keys(TRANSITIONS).sort());
    expect(new Set(triggers).size).toBe(triggers.length);
    for (const e of fired) {
      const rule = TRANSITIONS[e.trigger as Trigger];
      expect({ needs: e.needs, events: e.expect.events, refusal: e.refusal }, e.name).toEqual({ needs: [...rule.from], events: [...rule.events], refusal: rule.refusal });
      expect(e.expect.status, e.name).toBe(rule.to ?? rule.from[0]);
    }
  });

  it('lists every test identity number and every kind of personal data the metadata check refuses', () => {
    const values = of('test_value');
    for (const value of Object.values(TEST_IDENTITY)) expect(values.filter((e) => e.input === value), value).toHaveLength(1);
    const refused = values.filter((e) => e.expect.error?.code === 'metadata_personal_data');
    // What the entries say of the hosted form, by the form's own checks.
    expect(checkBsn(TEST_IDENTITY.bsn)).toEqual({ ok: true, value: TEST_IDENTITY.bsn });
    expect(checkIban(TEST_IDENTITY.iban)).toEqual({ ok: true, value: TEST_IDENTITY.iban });
    expect(checkBsn(values.find((e) => e.name === 'bsn-fails-11-check')!.input)).toMatchObject({ ok: false, message: expect.stringContaining('11-check') });
    // One sample of each kind, recognised as that kind by the check the metadata rules run.
    expect(refused.map((e) => findPersonalData(e.input)).sort()).toEqual([...PERSONAL_DATA_KINDS].sort());
    expect(findPersonalData(values.find((e) => e.name === 'bsn-fails-11-check')!.input)).toBeNull();
  });

  it('has unique names per section, an example for every entry and only error codes that exist', () => {
    for (const section of catalog.sections) {
      const list = names(of(section));
      expect(list.length, section).toBeGreaterThan(0);
      expect(new Set(list).size, section).toBe(list.length);
    }
    expect(catalog.entries.length).toBe(catalog.sections.reduce((n, s) => n + of(s).length, 0));
    for (const e of catalog.entries) {
      expect(e.example.length, e.name).toBeGreaterThan(0);
      if (e.expect.error) expect(Object.keys(ERROR_CODES)).toContain(e.expect.error.code);
      if (e.refusal) expect(Object.keys(ERROR_CODES)).toContain(e.refusal);
    }
  });
});
