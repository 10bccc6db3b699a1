import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readScenarioFile } from '../../src/scenarios/scenario.load.js';
import { expectError, harness, KEYS, type Harness } from '../support/harness.js';
import { createOnboarding, readOnboarding } from '../support/sandbox-steps.js';

/** Loading, showing, removing and checking scenarios over the control API; the autopilot around API calls. */

const quick = {
  name: 'quick',
  rules: [
    {
      match: { all: true },
      employee: { opens: '10m', submits: '10m', signs: '10m' },
      review: { identity_check: '10m', approvals: '10m' },
      contract: { sent: '10m', employer_signs: '10m' },
      payroll: { after: '10m' },
    },
  ],
};

async function advance(h: Harness, by: string | number, path = '/_emulator/clock/advance') {
  const res = await h.http().post(path).send({ by });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { fired: { kind: string; step?: string; onboarding_id?: string; skipped?: string; status?: string }[] };
}

const steps = (fired: { kind: string; step?: string }[]) => fired.filter((f) => f.kind === 'scenario.step').map((f) => f.step);

describe('PUT/GET/DELETE /_emulator/scenario', () => {
  it('loads a scenario, shows what it planned with due times, and plays it as the clock moves', async () => {
    const h = harness();
    const put = await h.http().put('/_emulator/scenario').send(quick);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ loaded: true, name: 'quick', source: 'api', document: quick });
    const id = await createOnboarding(h);
    const shown = await h.http().get('/_emulator/scenario');
    expect(shown.status).toBe(200);
    expect(shown.body.planned).toContainEqual({ onboarding_id: id, rule: 'rules[0]', step: 'employee_opened', due_at: '2026-10-05T09:10:00.000Z' });
    expect(shown.body.magic_addresses.map((m: { address: string }) => m.address)).toContain('payroll-fail@example.com');
    expect(steps((await advance(h, '10m')).fired)).toEqual(expect.arrayContaining(['employee_opened']));
    expect((await readOnboarding(h, id)).status).toBe('pending_employee');
    await advance(h, '2h');
    expect((await readOnboarding(h, id)).status).toBe('completed');
  });

  it('drives the onboardings that exist when it is loaded, from the moment of loading', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await advance(h, '1h');
    await h.http().put('/_emulator/scenario').send(quick).expect(200);
    const { fired } = await advance(h, '10m');
    expect(fired.find((f) => f.onboarding_id === id)).toMatchObject({ kind: 'scenario.step', step: 'employee_opened', due_at: '2026-10-05T10:10:00.000Z' });
  });

  it('refuses a scenario with mistakes: 422 scenario_invalid, every mistake with its path and a hint, the loaded one kept', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(quick).expect(200);
    const res = await h.http().put('/_emulator/scenario').send({
      rules: [
        { match: { all: true }, employee: { opens: '5 minutes', sings: '1h' } },
        { match: {}, payroll: { outcome: 'maybe' } },
      ],
    });
    const error = expectError(res, 422, 'invalid_request', 'scenario_invalid');
    const details = error.details as { path: string; message: string; hint?: string }[];
    expect(details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'rules[0].employee.sings', message: 'is not a known field', hint: expect.stringContaining('opens, submits and signs') }),
        expect.objectContaining({ path: 'rules[1].match', hint: expect.stringContaining('all') }),
        { path: 'rules[1].payroll.outcome', message: 'must be one of: success, failure', hint: "write success or failure; left out, the organization's payroll_failure switch decides" },
      ]),
    );
    const shown = await h.http().get('/_emulator/scenario');
    expect(shown.body.name).toBe('quick');
  });

  it('reports a delay it cannot read with the path and the accepted forms', async () => {
    const h = harness();
    const res = await h.http().put('/_emulator/scenario').send({ rules: [{ match: { all: true }, employee: { opens: '5 minutes' } }] });
    const error = expectError(res, 422, 'invalid_request', 'scenario_invalid');
    expect(error.details).toEqual([{ path: 'rules[0].employee.opens', message: '"5 minutes" is not a delay', hint: expect.stringContaining('"1h30m"') }]);
  });

  it('DELETE removes it: planned steps are cancelled and nothing moves any more', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(quick).expect(200);
    const id = await createOnboarding(h);
    const del = await h.http().delete('/_emulator/scenario');
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ loaded: false, name: null, document: null, planned: [] });
    expect(steps((await advance(h, '30d')).fired)).toEqual([]);
    expect((await readOnboarding(h, id)).status).toBe('pending_employee');
  });

  it('is per workspace: a scenario in one workspace does not move onboardings of another', async () => {
    const h = harness();
    const ws = await h.http().post('/_emulator/workspaces').send({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
    expect(ws.status).toBe(201);
    await h.http().put(`/_emulator/workspaces/${ws.body.id}/scenario`).send(quick).expect(200);
    const here = await createOnboarding(h);
    await advance(h, '1d');
    expect((await readOnboarding(h, here)).status).toBe('pending_employee');
    const shown = await h.http().get(`/_emulator/workspaces/${ws.body.id}/scenario`);
    expect(shown.body.name).toBe('quick');
    expect((await h.http().get('/_emulator/scenario')).body.loaded).toBe(false);
  });
});

describe('POST /_emulator/scenarios/validate', () => {
  it('says valid with the name and rule count, and changes nothing', async () => {
    const h = harness();
    const res = await h.http().post('/_emulator/scenarios/validate').send(quick);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true, name: 'quick', rules: 1, mistakes: [], warnings: [] });
    expect((await h.http().get('/_emulator/scenario')).body.loaded).toBe(false);
  });

  it('lists every mistake of an invalid document', async () => {
    const h = harness();
    const res = await h.http().post('/_emulator/scenarios/validate').send({ rules: [{ match: { all: true }, review: { approvals: { ceo: '1h' } } }], extra: 1 });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.mistakes.map((m: { path: string }) => m.path)).toEqual(['extra', 'rules[0].review.approvals.ceo']);
  });

  it('names what is allowed at each place: roles, choices, selectors, fields, and the forms of a delay', async () => {
    const h = harness();
    const res = await h.http().post('/_emulator/scenarios/validate').send({
      rules: [
        {
          match: { all: true },
          employee: { opens: false },
          review: { approvals: { ceo: '1h' }, corrections: { to: 'hr', after: '1h' }, terms_change: { when: 'later', after: '1h', terms: { position: 'Cook' } } },
          payroll: { outcome: 'maybe' },
        },
        { match: { first_name: 'Anna' }, contract: { signed: '1h' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: false,
      name: null,
      rules: 0,
      mistakes: [
        { path: 'rules[0].review.approvals.ceo', message: 'is not a known field', hint: 'approvals has manager, payroll_reviewer and owner' },
        { path: 'rules[1].match.first_name', message: 'is not a known field', hint: 'match has all, reference, email, name, template and metadata' },
        { path: 'rules[1].contract.signed', message: 'is not a known field', hint: 'contract has sent and employer_signs' },
        {
          path: 'rules[0].employee.opens',
          message: 'must be a duration such as "90m", "1h30m", "2d" or "PT2H", or a number of seconds, or "never"',
          hint: 'write a delay such as "30m", "1h30m", "2d", "PT2H" or a number of seconds, or "never"',
        },
        {
          path: 'rules[0].review.corrections.to',
          message: 'must be one of: employee, manager',
          hint: 'write employee or manager; who gets the data back: the employee, who submits again, or the manager, who corrects it after manager_corrects',
        },
        {
          path: 'rules[0].review.terms_change.when',
          message: 'must be one of: in_review, after_approval',
          hint: 'write in_review or after_approval; in_review, the default, counts from the identity check, after_approval from the last approval',
        },
        { path: 'rules[0].payroll.outcome', message: 'must be one of: success, failure', hint: "write success or failure; left out, the organization's payroll_failure switch decides" },
      ],
      warnings: [],
    });
  });
});

describe('GET /_emulator/scenarios/schema', () => {
  it('publishes the JSON Schema scenario documents are checked with: every ready scenario passes it, a mistake does not', async () => {
    const h = harness();
    const res = await h.http().get('/_emulator/scenarios/schema');
    expect(res.status).toBe(200);
    expect(res.body.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    // An independent draft 2020-12 validator, not the emulator's own precompiled one.
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const addFormats = (await import('ajv-formats')).default as unknown as (a: InstanceType<typeof Ajv2020>) => void;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(res.body as object);
    const files = readdirSync(fileURLToPath(new URL('../../scenarios/', import.meta.url))).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const f of files) {
      expect(validate(readScenarioFile(fileURLToPath(new URL(`../../scenarios/${f}`, import.meta.url)))), `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(validate({ version: 1, rules: [{ match: { all: true }, employee: { open: '1h' } }] })).toBe(false);
    expect(validate({ version: 1, rules: [{ match: { all: true }, payroll: { outcome: 'maybe' } }] })).toBe(false);
  });
});

describe('a scenario given at creation', () => {
  it('POST /_emulator/workspaces with a scenario plays it; a broken one is 422 with paths under scenario', async () => {
    const h = harness();
    const created = await h.http().post('/_emulator/workspaces').send({ scenario: quick, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
    expect(created.status).toBe(201);
    const owner = (created.body.keys as { key: string; name: string }[]).find((k) => k.key.startsWith(`${KEYS.owner}_`))!.key;
    const id = await createOnboarding(h, owner);
    await h.http().post(`/_emulator/workspaces/${created.body.id}/clock/advance`).send({ by: '3h' }).expect(200);
    expect((await readOnboarding(h, id, owner)).status).toBe('completed');

    const broken = await h.http().post('/_emulator/workspaces').send({ scenario: { rules: [{ match: { all: true }, contract: { sent: 'soon' } }] } });
    const error = expectError(broken, 422, 'invalid_request', 'scenario_invalid');
    expect(error.details).toEqual([expect.objectContaining({ path: 'scenario.rules[0].contract.sent' })]);
  });

  it('the emulator’s --scenario files play in the default workspace and in new workspaces, unless they bring their own or null', async () => {
    const file = fileURLToPath(new URL('../../scenarios/happy-path.yaml', import.meta.url));
    const h = harness({ scenario: [file] });
    const shown = await h.http().get('/_emulator/scenario');
    expect(shown.body).toMatchObject({ loaded: true, name: 'happy-path', source: 'happy-path.yaml' });
    const inherits = await h.http().post('/_emulator/workspaces').send({});
    expect((await h.http().get(`/_emulator/workspaces/${inherits.body.id}/scenario`)).body.name).toBe('happy-path');
    const none = await h.http().post('/_emulator/workspaces').send({ scenario: null });
    expect((await h.http().get(`/_emulator/workspaces/${none.body.id}/scenario`)).body.loaded).toBe(false);
  });

  it('a reset keeps the loaded scenario and plays the fixture onboardings again from the start', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(quick).expect(200);
    await advance(h, '1d');
    const reset = await h.http().post('/_emulator/reset').send({});
    expect(reset.status).toBe(200);
    const shown = await h.http().get('/_emulator/scenario');
    expect(shown.body.name).toBe('quick');
    expect(shown.body.planned.length).toBeGreaterThan(0);
    expect(shown.body.planned.every((p: { due_at: string }) => p.due_at === '2026-10-05T09:10:00.000Z')).toBe(true);
  });
});

describe('the autopilot around API calls', () => {
  it('continues from where an API call left the onboarding, each later step timed from that call', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send({ rules: [{ match: { all: true }, employee: { opens: '1d', submits: '1h' } }] }).expect(200);
    const id = await createOnboarding(h);
    await advance(h, '2h');
    // The employee opens the link early, through the control API; the scripted open is dropped.
    await h.http().post(`/_emulator/onboardings/${id}/employee/open`).send({}).expect(200);
    const { fired } = await advance(h, '1h');
    expect(fired.filter((f) => f.onboarding_id === id)).toEqual([
      expect.objectContaining({ kind: 'scenario.step', step: 'employee_submitted', due_at: '2026-10-05T12:00:00.000Z', status: 'in_review' }),
    ]);
    expect((await advance(h, '2d')).fired.filter((f) => f.onboarding_id === id)).toEqual([]);
  });

  it('a scripted step the person cannot take is reported as skipped, and the onboarding waits', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send({ rules: [{ match: { all: true }, employee: { opens: '3d' } }] }).expect(200);
    const id = await createOnboarding(h, KEYS.owner, { options: { expires_in_hours: 24 } });
    const { fired } = await advance(h, '4d');
    expect(fired.find((f) => f.onboarding_id === id)).toMatchObject({ step: 'employee_opened', skipped: 'hosted_link_expired' });
    expect((await readOnboarding(h, id)).status).toBe('pending_employee');
  });

  it('a cancelled onboarding has nothing planned', async () => {
    const h = harness();
    await h.http().put('/_emulator/scenario').send(quick).expect(200);
    const id = await createOnboarding(h);
    await h.as(KEYS.owner).post(`/v1/onboardings/${id}/cancel`).expect(200);
    const shown = await h.http().get('/_emulator/scenario');
    expect(shown.body.planned.map((p: { onboarding_id: string }) => p.onboarding_id)).not.toContain(id);
  });

  it('rules select by reference, metadata, e-mail, name and template; the first match wins', async () => {
    const h = harness();
    const opens = (after: string) => ({ employee: { opens: after } });
    await h.http().put('/_emulator/scenario').send({
      rules: [
        { name: 'by reference', match: { reference: 'HIRE-1??' }, ...opens('1m') },
        { name: 'by metadata', match: { metadata: { team: 'red', senior: true } }, ...opens('2m') },
        { name: 'by e-mail', match: { email: '*@slow.example' }, ...opens('3m') },
        { name: 'by name', match: { name: 'anna *' }, ...opens('4m') },
        { name: 'by template', match: { template: 'tpl_acme_standard' }, ...opens('5m') },
      ],
    }).expect(200);
    const make = (o: Record<string, unknown>) => createOnboarding(h, KEYS.owner, o);
    const employee = (first: string, email: string) => ({ first_name: first, last_name: 'Jansen', email });
    const ids = [
      await make({ reference: 'HIRE-123' }),
      await make({ reference: 'other', metadata: { team: 'red', senior: true } }),
      await make({ reference: 'other', employee: employee('Piet', 'piet@SLOW.example') }),
      await make({ reference: 'other', employee: employee('Anna', 'anna@x.example') }),
      await make({ reference: 'other', metadata: { team: 'red' } }),
    ];
    const planned = (await h.http().get('/_emulator/scenario')).body.planned as { onboarding_id: string; rule: string; due_at: string }[];
    expect(ids.map((id) => planned.find((p) => p.onboarding_id === id)?.rule)).toEqual(['rules[0]', 'rules[1]', 'rules[2]', 'rules[3]', 'rules[4]']);
    expect(ids.map((id) => planned.find((p) => p.onboarding_id === id)?.due_at.slice(14, 16))).toEqual(['01', '02', '03', '04', '05']);
  });
});

describe('without a scenario', () => {
  it('nothing moves by itself, however far the clock goes', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    const { fired } = await advance(h, '20d');
    expect(steps(fired)).toEqual([]);
    expect((await readOnboarding(h, id)).status).toBe('pending_employee');
  });
});
