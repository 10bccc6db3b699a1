import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { READY_SCENARIOS_DIR, readScenarioFile } from '../../src/scenarios/scenario.load.js';
import { expectError, harness } from '../support/harness.js';
import { withBodiesInline } from '../support/openapi-doc.js';

/**
 * Scenarios sent as YAML (a test suite in any language posts a ready file as it is), and the
 * warnings the load and validate answers carry for parts that can do nothing.
 */
const readyText = (name: string) => readFileSync(`${READY_SCENARIOS_DIR}${name}.yaml`, 'utf8');

describe('YAML bodies on PUT /_emulator/scenario and POST /_emulator/scenarios/validate', () => {
  it.each(['application/yaml', 'text/yaml', 'application/x-yaml', 'application/yaml; charset=utf-8'])('a ready file sent as it is with %s loads', async (type) => {
    const h = harness();
    const res = await h.http().put('/_emulator/scenario').set('Content-Type', type).send(readyText('payroll-failure-then-recovery'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ loaded: true, name: 'payroll-failure-then-recovery', source: 'api', warnings: [] });
    expect(res.body.document).toEqual(readScenarioFile('payroll-failure-then-recovery'));
  });

  it('validate reads YAML as it reads JSON', async () => {
    const h = harness();
    const yaml = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/yaml').send(readyText('happy-path'));
    const json = await h.http().post('/_emulator/scenarios/validate').send(readScenarioFile('happy-path'));
    expect(yaml.status).toBe(200);
    expect(yaml.body).toEqual({ valid: true, name: 'happy-path', rules: 1, mistakes: [], warnings: [] });
    expect(yaml.body).toEqual(json.body);
  });

  it('a YAML document with mistakes is refused as a JSON one is: 422 scenario_invalid with paths and hints', async () => {
    const h = harness();
    const res = await h.http().put('/_emulator/scenario').set('Content-Type', 'application/yaml').send('rules:\n  - match: { all: true }\n    employee: { opens: soon }\n');
    const error = expectError(res, 422, 'invalid_request', 'scenario_invalid');
    expect(error.details).toEqual([{ path: 'rules[0].employee.opens', message: '"soon" is not a delay', hint: expect.stringContaining('"30m"') }]);
    // YAML's .inf is a number JSON cannot carry; it is still no delay the clock can reach.
    const inf = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/yaml').send('rules:\n  - match: { all: true }\n    employee: { opens: .inf }\n');
    expect(inf.body.mistakes).toEqual([{ path: 'rules[0].employee.opens', message: 'Infinity seconds is longer than 100 years, the longest delay', hint: expect.any(String) }]);
  });

  it('YAML that does not parse is 400 body_invalid_yaml, as JSON that does not parse is 400 body_invalid_json, on both routes', async () => {
    const h = harness();
    for (const [method, path] of [['put', '/_emulator/scenario'], ['post', '/_emulator/scenarios/validate']] as const) {
      const broken = await h.http()[method](path).set('Content-Type', 'application/yaml').send('rules: [\n');
      expect(expectError(broken, 400, 'invalid_request', 'body_invalid_yaml').message).toBe(
        'The body is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1.',
      );
      const twice = await h.http()[method](path).set('Content-Type', 'text/yaml').send('rules: []\nrules: []\n');
      expect(expectError(twice, 400, 'invalid_request', 'body_invalid_yaml').message).toBe('The body is not valid YAML: Map keys must be unique at line 2, column 1.');
      const json = await h.http()[method](path).set('Content-Type', 'application/json').send('{"rules": [],}');
      expectError(json, 400, 'invalid_request', 'body_invalid_json');
    }
    const list = await h.http().put('/_emulator/scenario').set('Content-Type', 'application/yaml').send('- match: { all: true }\n');
    expect(expectError(list, 400, 'invalid_request', 'body_not_object').message).toBe('The body must be a YAML mapping (an object), not a list or a single value.');
    expect((await h.http().get('/_emulator/scenario')).body.loaded).toBe(false);
  });

  it('only the scenario routes take YAML; another type is 415 and says which types the route takes', async () => {
    const h = harness();
    const advance = await h.http().post('/_emulator/clock/advance').set('Content-Type', 'application/yaml').send('by: 1h\n');
    expect(expectError(advance, 415, 'invalid_request', 'content_type_unsupported').message).toBe('Send the body as JSON with Content-Type: application/json.');
    const text = await h.http().put('/_emulator/scenario').set('Content-Type', 'text/plain').send('rules: []\n');
    expect(expectError(text, 415, 'invalid_request', 'content_type_unsupported').message).toBe(
      'Send the body as JSON with Content-Type: application/json, or as YAML with Content-Type: application/yaml.',
    );
  });

  it('a YAML body over 1 MB is 413 like a JSON one', async () => {
    const h = harness();
    const res = await h.http().put('/_emulator/scenario').set('Content-Type', 'application/yaml').send(`description: "${'x'.repeat(1024 * 1024)}"\nrules: []\n`);
    expectError(res, 413, 'invalid_request', 'body_too_large');
  });
});

describe('warnings: what a valid scenario has that can do nothing', () => {
  const dead = [
    'name: dead',
    'rules:',
    '  - match: { all: true }',
    '    employee: { opens: never, submits: 1h }',
    '  - match: { reference: "A*" }',
    '    employee: { opens: 1h }',
    '',
  ].join('\n');
  const expected = [
    { path: 'rules[0].employee.opens', message: expect.stringMatching(/^is never, so what is scripted after it \(employee\.submits\) plays only if something else takes this step/) },
    { path: 'rules[1]', message: 'never drives an onboarding: rules[0] matches every onboarding this rule matches, and the first rule that matches wins' },
  ];

  it('the scenario loads all the same; load, show and validate carry the warnings, removing it clears them', async () => {
    const h = harness();
    const put = await h.http().put('/_emulator/scenario').set('Content-Type', 'application/yaml').send(dead);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ loaded: true, name: 'dead', warnings: expected });
    expect((await h.http().get('/_emulator/scenario')).body.warnings).toEqual(expected);
    const validated = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/yaml').send(dead);
    expect(validated.body).toEqual({ valid: true, name: 'dead', rules: 2, mistakes: [], warnings: expected });
    expect((await h.http().delete('/_emulator/scenario')).body).toMatchObject({ loaded: false, warnings: [] });
  });

  it('an empty rule list is a warning, not a mistake', async () => {
    const h = harness();
    const res = await h.http().put('/_emulator/scenario').send({ rules: [] });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([{ path: 'rules', message: 'there are no rules: nothing is driven but the onboardings of magic e-mail addresses' }]);
  });

  it('a document with mistakes has no warnings to add', async () => {
    const h = harness();
    const res = await h.http().post('/_emulator/scenarios/validate').send({ rules: [{ match: { all: true }, employee: { opens: 'never', submits: 'soon' } }] });
    expect(res.body).toMatchObject({ valid: false, warnings: [] });
  });
});

describe('the OpenAPI document', () => {
  it('lists YAML beside JSON for the scenario bodies, and warnings in both answers', async () => {
    type Schema = { $ref?: string; properties?: Record<string, unknown> };
    const doc = withBodiesInline((await harness().http().get('/openapi.json')).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
      components: { schemas: Record<string, Schema> };
    });
    // Named schemas are published once and referred to.
    const resolved = (schema: Schema): Schema => (schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]! : schema);
    for (const [path, method] of [['/_emulator/scenario', 'put'], ['/_emulator/scenarios/validate', 'post']] as const) {
      const op = doc.paths[path]![method]!;
      expect(Object.keys(op.requestBody!.content)).toEqual(['application/json', 'application/yaml']);
      expect(op.requestBody!.content['application/yaml']).toEqual(op.requestBody!.content['application/json']);
      expect(resolved(op.responses['200']!.content!['application/json']!.schema).properties).toHaveProperty('warnings');
    }
    expect(Object.keys(doc.paths['/_emulator/clock/advance']!.post!.requestBody!.content)).toEqual(['application/json']);
  });
});
