import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../src/http/openapi.js';
import { listKeys } from '../../src/control/control.service.js';
import { postmanCollection, type OpenApiDocument } from '../../src/control/postman.collection.js';
import { JOURNEY } from '../../src/control/postman.journey.js';
import { Emulator } from '../../src/emulator.js';

/** The collection as made from the OpenAPI document, before anything runs it (newman runs it in test/e2e/postman-newman.test.ts). */
const doc = buildOpenApi('http://127.0.0.1:4010') as unknown as OpenApiDocument;
const operations = Object.entries(doc.paths).filter(([path]) => path.startsWith('/v1/')).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
const keys = listKeys(new Emulator().defaultWorkspace).data;
const collection = postmanCollection(doc, keys, 'http://127.0.0.1:4010/');

interface Item {
  id: string;
  request: { method: string; url: { raw: string }; auth: { bearer: { value: string }[] }; body?: { raw: string } };
  event: { script: { exec: string[] } }[];
}
const items = collection.item.flatMap((f) => f.item as unknown as Item[]);
const variable = (name: string) => collection.variable.find((v) => v.key === name)?.value;

describe('the Postman collection of /v1', () => {
  it('names every operation of the document in its journey, and nothing else', () => {
    expect(new Set(JOURNEY.map((s) => s.operationId))).toEqual(new Set(operations.map((o) => o.op.operationId)));
  });

  it('has a folder per tag and a request per operation, each on {{baseUrl}} with a key holding its scope', () => {
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(variable('baseUrl')).toBe('http://127.0.0.1:4010');
    expect(collection.item.map((f) => f.name).sort()).toEqual([...new Set(operations.map((o) => o.op.tags![0]!))].sort());
    for (const { method, path, op } of operations) {
      const item = items.find((i) => i.id.split(' ')[0] === op.operationId)!;
      expect(item, op.operationId).toBeDefined();
      expect(collection.item.find((f) => f.name === op.tags![0])!.item).toContain(item);
      expect(item.request.method).toBe(method);
      expect(item.request.url.raw.startsWith(`{{baseUrl}}${path.replace(/\{[^}]+\}/g, '{{x}}')}`.split('{{x}}')[0]!)).toBe(true);
      const keyName = /^\{\{(\w+)\}\}$/.exec(item.request.auth.bearer[0]!.value)![1]!;
      const key = keys.find((k) => k.key === variable(keyName))!;
      expect(key.scopes, op.operationId).toContain(op['x-scope']);
      expect(key.environment).toBe('test');
      const status = Math.min(...Object.keys(op.responses).map(Number).filter((s) => s < 300));
      expect(item.event[0]!.script.exec[0]).toContain(`pm.response.to.have.status(${status})`);
    }
  });

  it('sends bodies from the schemas\' examples, the chained values as variables', () => {
    const create = items.find((i) => i.id === 'createOnboarding')!;
    expect(JSON.parse(create.request.body!.raw)).toMatchObject({ employment: { template_id: 'tpl_acme_standard' } });
    const approve = items.find((i) => i.id === 'approveOnboarding')!;
    expect(approve.request.body!.raw).toContain('"data_version": {{data_version}}');
    const keyName = /\{\{(\w+)\}\}/.exec(approve.request.auth.bearer[0]!.value)![1]!;
    // An approval is given as the key's user: a manager's key for the manager role the body names.
    expect(keys.find((k) => k.key === variable(keyName))!.user!.roles).toContain('manager');
    expect(JSON.parse(approve.request.body!.raw.replace('{{data_version}}', '2')).role).toBe('manager');
    expect(items.find((i) => i.id === 'createWebhook')!.request.body!.raw).toContain('"url": "{{webhookUrl}}"');
    expect(variable('webhookUrl')).toBe('https://partner.example/webhooks/onboarding');
  });

  it('never holds a live or a partner key, even when the workspace has no employer test key', () => {
    expect(JSON.stringify(collection)).not.toContain('hrs_live_');
    const only = keys.filter((k) => k.environment === 'live' || k.partner_id !== null);
    const bare = postmanCollection(doc, only, 'http://127.0.0.1:4010');
    expect(JSON.stringify(bare)).not.toMatch(/hrs_(live|test)_/);
    expect(bare.variable.find((v) => v.key === 'apiKey')).toMatchObject({ value: '' });
  });
});
