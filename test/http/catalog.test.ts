import { describe, expect, it } from 'vitest';
import { CatalogSchema } from '../../src/control/catalog.schemas.js';
import { sandboxCatalog } from '../../src/control/catalog.js';
import { makeAjv } from '../../src/core/ajv.js';
import { MAGIC_ADDRESSES } from '../../src/scenarios/scenario.magic.js';
import { harness } from '../support/harness.js';

describe('GET /_emulator/catalog', () => {
  it('answers the sandbox catalogue as JSON, valid against its documented schema', async () => {
    const res = await harness().http().get('/_emulator/catalog');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const matches = makeAjv(false).compile(JSON.parse(JSON.stringify(CatalogSchema)));
    expect(matches(res.body), JSON.stringify(matches.errors)).toBe(true);
    expect(res.body.object).toBe('catalog');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(sandboxCatalog())));
    const addresses = (res.body.entries as { section: string; input: string }[]).filter((e) => e.section === 'magic_address').map((e) => e.input);
    expect(addresses).toEqual(Object.keys(MAGIC_ADDRESSES).map((name) => `${name}@example.com`));
  });

  it('is the same for every workspace, and served once: no per-workspace path', async () => {
    const h = harness();
    const ws = await h.http().post('/_emulator/workspaces');
    expect(ws.status).toBe(201);
    expect((await h.http().get(`/_emulator/workspaces/${ws.body.id as string}/catalog`)).status).toBe(404);
    expect((await h.as(ws.body.keys[0].key as string).get('/_emulator/catalog')).body).toEqual((await h.http().get('/_emulator/catalog')).body);
  });

  it('is in the OpenAPI document under its tag', async () => {
    const doc = (await harness().http().get('/openapi.json')).body;
    expect(doc.paths['/_emulator/catalog'].get).toMatchObject({ operationId: 'getCatalog', tags: ['Catalog'] });
  });
});
