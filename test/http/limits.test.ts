import { describe, expect, it } from 'vitest';
import { MAX_FAULTS, MAX_WORKSPACES } from '../../src/control/control.service.js';
import { expectError, harness } from '../support/harness.js';

/** Counts the control API keeps bounded: workspaces, faults and delivery faults. */
describe('count limits', () => {
  it('keeps at most 100 workspaces, the default one included, and takes a new one once one is deleted', async () => {
    const h = harness();
    let last = '';
    for (let i = 1; i < MAX_WORKSPACES; i++) {
      const res = await h.http().post('/_emulator/workspaces').send({});
      expect(res.status).toBe(201);
      last = res.body.id as string;
    }
    const refused = await h.http().post('/_emulator/workspaces').send({});
    expectError(refused, 422, 'invalid_request', 'workspace_limit_reached');
    expect(refused.body.error.message).toContain('at most 100 workspaces');
    expect(h.emulator.workspaces()).toHaveLength(MAX_WORKSPACES);
    expect((await h.http().delete(`/_emulator/workspaces/${last}`)).status).toBe(200);
    expect((await h.http().post('/_emulator/workspaces').send({})).status).toBe(201);
  });

  it('keeps at most 100 faults and 100 delivery faults waiting in a workspace', async () => {
    const h = harness();
    for (let i = 0; i < MAX_FAULTS; i++) {
      expect((await h.http().post('/_emulator/faults').send({ kind: 'error', count: 1, path: `/v1/x${i}` })).status).toBe(201);
      expect((await h.http().post('/_emulator/delivery-faults').send({ kind: 'delay', delay_ms: 1000 })).status).toBe(201);
    }
    expectError(await h.http().post('/_emulator/faults').send({ kind: 'error', count: 1 }), 422, 'invalid_request', 'fault_limit_reached');
    expectError(await h.http().post('/_emulator/delivery-faults').send({ kind: 'delay', delay_ms: 1000 }), 422, 'invalid_request', 'fault_limit_reached');
    expect((await h.http().delete('/_emulator/faults')).status).toBe(200);
    expect((await h.http().post('/_emulator/faults').send({ kind: 'error', count: 1 })).status).toBe(201);
  });
});

describe('body size by format', () => {
  it('takes a YAML body up to 32 KB (the parser is slow), and JSON up to 1 MB', async () => {
    const h = harness();
    const padding = `# ${'x'.repeat(40 * 1024)}\n`;
    const yaml = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/yaml').send(`${padding}version: 1\nname: big\nrules: []\n`);
    expectError(yaml, 413, 'invalid_request', 'body_too_large');
    expect(yaml.body.error.message).toBe('The body is larger than 32 KB.');
    const near = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/yaml').send(`# ${'x'.repeat(30 * 1024)}\nversion: 1\nname: near\nrules: []\n`);
    expect(near.status).toBe(200);
    const json = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/json').send(JSON.stringify({ version: 1, name: 'big', description: 'x'.repeat(200 * 1024), rules: [] }));
    expect(json.status).not.toBe(413);
    const small = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/yaml').send('version: 1\nname: small\nrules: []\n');
    expect(small.status).not.toBe(413);
  });

  it('refuses a YAML body whose aliases stand for more than 100,000 values, and still names a key given twice where it is', async () => {
    const h = harness();
    // 2,000 items anchored once and named 99 times more: 15 KB of text for 200,000 values.
    const items = Array.from({ length: 2000 }, () => 1).join(', ');
    const bomb = `version: 1\nrules: []\ndescription: x\nx0: &a [${items}]\n${Array.from({ length: 99 }, (_, i) => `x${i + 1}: *a`).join('\n')}\n`;
    const refused = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/yaml').send(bomb);
    expectError(refused, 413, 'invalid_request', 'body_too_large');
    expect(refused.body.error.message).toBe('The body holds more than 100,000 values once its aliases are expanded.');
    const fewer = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/yaml').send(bomb.split('\n').slice(0, 14).join('\n'));
    expect(fewer.status).toBe(200);
    const twice = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/yaml').send('version: 1\nrules:\n  - name: a\n    name: b\nrules: []\n');
    expect(expectError(twice, 400, 'invalid_request', 'body_invalid_yaml').message).toBe('The body is not valid YAML: Map keys must be unique at line 4, column 5.');
  });
});
