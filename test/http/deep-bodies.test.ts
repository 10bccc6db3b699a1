import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/in-process.js';
import { createBody, expectError, harness, KEYS } from '../support/harness.js';

/**
 * Bodies nested thousands deep: each refused with 400 body_too_deep wherever a body is read
 * (the API, the control API, JSON and YAML), and nothing of them kept, so the journal, a
 * snapshot, a verify and a state-file write keep working afterwards.
 */
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const nestedYaml = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('a body nested too deep', () => {
  it('is refused on /v1 with 400 body_too_deep, journaled without its body, and the journal, snapshot and verify still answer', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post('/v1/onboardings').set('Content-Type', 'application/json').send(`{"reference":"x","metadata":${nested(8_000)}}`);
    expectError(res, 400, 'invalid_request', 'body_too_deep');
    expect(res.body.error.message).toBe('The body nests objects and arrays more than 64 levels deep.');
    const journal = await h.http().get('/_emulator/requests');
    expect(journal.status).toBe(200);
    expect(journal.body.data[0]).toMatchObject({ method: 'POST', path: '/v1/onboardings', status: 400, error_code: 'body_too_deep', body: null });
    expect((await h.http().get('/_emulator/snapshot')).status).toBe(200);
    expect((await h.http().post('/_emulator/requests/verify').send({ matcher: { error_code: 'body_too_deep' }, expected: { exactly: 1 } })).body.ok).toBe(true);
  });

  it('is accepted up to 64 levels, and a snapshot holding such a journaled body restores', async () => {
    const h = harness();
    const deepest = JSON.parse(nested(63)) as unknown;
    const res = await h.as(KEYS.owner).post('/v1/onboardings').send({ ...createBody(), extra: deepest });
    expect(res.status).toBe(422); // an unknown field: refused by the schema, not by the depth
    expect(res.body.error.code).not.toBe('body_too_deep');
    const snapshot = await h.http().get('/_emulator/snapshot');
    expect((await h.http().put('/_emulator/snapshot').send(snapshot.body)).status).toBe(200);
  });

  it('is refused by the control API as JSON and as YAML, where it used to answer 500', async () => {
    const h = harness();
    const json = await h.http().post('/_emulator/scenarios/validate').set('Content-Type', 'application/json').send(`{"version":1,"name":"x","rules":${nested(5_000)}}`);
    expectError(json, 400, 'invalid_request', 'body_too_deep');
    const yaml = await h.http().put('/_emulator/scenario').set('Content-Type', 'application/yaml').send(`version: 1\nname: x\nrules: ${nestedYaml(5_000)}\n`);
    expectError(yaml, 400, 'invalid_request', 'body_too_deep');
    const workspace = await h.http().post('/_emulator/workspaces').set('Content-Type', 'application/json').send(`{"scenario":{"version":1,"name":"x","rules":${nested(2_000)}}}`);
    expectError(workspace, 400, 'invalid_request', 'body_too_deep');
    const snapshot = await h.http().put('/_emulator/snapshot').set('Content-Type', 'application/json').send(`{"store":${nested(10_000)}}`);
    expectError(snapshot, 400, 'invalid_request', 'body_too_deep');
    expect(snapshot.body.error.message).toContain('96 levels');
  });

  it('leaves the state file written: later requests of every workspace still answer', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'deep-state-')), 'state.json');
    const emu = createEmulator({ stateFile: file });
    const refused = await request(emu.app).post('/v1/onboardings').set('Authorization', `Bearer ${KEYS.owner}`).set('Content-Type', 'application/json').send(`{"metadata":${nested(8_000)}}`);
    expect(refused.status).toBe(400);
    const created = await request(emu.app).post('/v1/onboardings').set('Authorization', `Bearer ${KEYS.owner}`).send(createBody());
    expect(created.status).toBe(201);
    expect((await request(emu.app).get('/_emulator/health')).status).toBe(200);
    await emu.close();
    expect(readFileSync(file, 'utf8')).toContain(created.body.id as string);
  });
});
