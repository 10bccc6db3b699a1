import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/index.js';
import { EVENT_TYPES, OLDER_NAMES } from '../../src/resources/events/events.model.js';
import { SAMPLE_SECRET } from '../../src/resources/webhooks/webhooks.samples.js';
import { harness } from '../support/harness.js';

/**
 * The document's webhooks, read from GET /openapi.json: one POST per event type the emulator
 * sends (older names and ping each once), its body schema biting where types differ, its headers,
 * and a sample whose signature verifies with the package's verifySignature and whose body
 * conforms to the schema beside it.
 */
// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Json = Record<string, unknown>;
interface Parameter { name: string; in: string; required: boolean; description: string; schema: Json; example: string }
interface Webhook {
  post: {
    operationId: string;
    summary: string;
    description: string;
    parameters: Parameter[];
    requestBody: { required: boolean; content: Record<string, { schema: Json; examples: Record<string, { value: Json; description: string }> }> };
    responses: Record<string, unknown>;
  };
}
let doc: { webhooks: Record<string, Webhook>; components: Json };
let ajv: Ajv2020;

beforeAll(async () => {
  const res = await harness().http().get('/openapi.json');
  expect(res.status).toBe(200);
  doc = JSON.parse(res.text) as typeof doc;
  ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
});

const bodyOf = (type: string) => doc.webhooks[type]!.post.requestBody.content['application/json']!;
const validatorOf = (type: string) => ajv.compile({ ...bodyOf(type).schema, components: doc.components });
const headerExample = (type: string, name: string) => doc.webhooks[type]!.post.parameters.find((p) => p.name === name)?.example;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('webhooks in /openapi.json', () => {
  it('has exactly one entry per event type the emulator sends, older names and ping included', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_TYPES]);
    for (const older of Object.values(OLDER_NAMES)) expect(doc.webhooks).toHaveProperty([older]);
    const ids = Object.values(doc.webhooks).map((w) => w.post.operationId);
    expect(new Set(ids).size).toBe(EVENT_TYPES.length);
  });

  it.each(EVENT_TYPES)('%s: a POST with the message headers and a signed sample that verifies and conforms', (type) => {
    const op = doc.webhooks[type]!.post;
    expect(Object.keys(doc.webhooks[type]!)).toEqual(['post']);
    expect(op.requestBody.required).toBe(true);
    expect(Object.keys(op.requestBody.content)).toEqual(['application/json']);
    expect(op.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['User-Agent', 'header', true], ['Service-Event-Id', 'header', true], ['Service-Event-Type', 'header', true], ['Service-Signature', 'header', true],
    ]);
    expect(op.parameters.find((p) => p.name === 'Service-Signature')!.description).toMatch(/t=<unix>,v1=<hex>/);
    expect(Object.keys(op.responses)).toContain('2XX');

    const example = bodyOf(type).examples.signed!;
    const raw = JSON.stringify(example.value);
    const signature = headerExample(type, 'Service-Signature')!;
    const t = Number(/^t=(\d+),/.exec(signature)![1]);
    expect(example.description).toContain(SAMPLE_SECRET);
    expect(example.description).toContain(`t=${t}`);
    expect(verifySignature(raw, signature, SAMPLE_SECRET, { now: t })).toBe(true);
    expect(verifySignature(raw, signature, 'whsec_another_secret', { now: t })).toBe(false);
    expect(verifySignature(raw.replace('"data":{', '"data":{"x":1,'), signature, SAMPLE_SECRET, { now: t })).toBe(false);

    const validate = validatorOf(type);
    expect(validate(example.value), JSON.stringify(validate.errors)).toBe(true);
    expect(example.value).toMatchObject({ type, id: headerExample(type, 'Service-Event-Id') });
    expect(headerExample(type, 'Service-Event-Type')).toBe(type);
    expect(headerExample(type, 'User-Agent')).toBe('Service-Webhooks/1');
    // Another type's message is not this one's.
    const other = clone(example.value);
    other.type = type === 'ping' ? 'onboarding.created' : 'ping';
    expect(validate(other)).toBe(false);
  });

  it('gives each type the data the spec lists for it', () => {
    const data = (type: string) => (bodyOf(type).examples.signed!.value as { data: Json }).data;
    const refuses = (type: string, change: (d: Json) => void) => {
      const value = clone(bodyOf(type).examples.signed!.value) as { data: Json };
      change(value.data);
      return !validatorOf(type)(value);
    };
    expect(data('onboarding.invitation_sent')).toHaveProperty('kind');
    expect(refuses('onboarding.invitation_sent', (d) => (d.kind = 'postcard'))).toBe(true);
    expect(refuses('onboarding.returned', (d) => delete d.returned_to)).toBe(true);
    expect(refuses('onboarding.approval_given', (d) => delete d.role)).toBe(true);
    for (const type of ['integration.sync_succeeded', 'payroll.completed']) expect(refuses(type, (d) => delete d.connector)).toBe(true);
    for (const type of ['integration.sync_failed', 'onboarding.failed']) expect(refuses(type, (d) => delete d.error_code)).toBe(true);
    expect(data('ping')).toEqual({ message: expect.any(String) });
    expect(refuses('ping', (d) => delete d.message)).toBe(true);
    expect(refuses('onboarding.created', (d) => delete d.data_version)).toBe(true);
    // An older name carries what its current name carries.
    for (const [current, older] of Object.entries(OLDER_NAMES)) expect(Object.keys(data(older!))).toEqual(Object.keys(data(current)));
  });
});
