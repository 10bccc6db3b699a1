import type { IncomingHttpHeaders } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApi } from '../../src/http/openapi.js';

/**
 * Checks a webhook message as a partner's generated validator would: its body against the schema
 * of its type's webhook in the published document (/openapi.json), and its headers against that
 * webhook's parameters (the signature's form only: delivery faults bend its value on purpose).
 */

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Json = Record<string, unknown>;
interface Webhook { post: { parameters: { name: string; schema: Json }[]; requestBody: { content: { 'application/json': { schema: Json } } } } }

let doc: { webhooks: Record<string, Webhook>; components: Json } | undefined;
let ajv: Ajv2020 | undefined;
const bodies = new Map<string, ValidateFunction>();
const headerChecks = new Map<string, ValidateFunction>();

function published() {
  doc ??= buildOpenApi() as unknown as { webhooks: Record<string, Webhook>; components: Json };
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
  }
  return { doc, ajv };
}

const compiled = (cache: Map<string, ValidateFunction>, key: string, schema: () => Json) => {
  const { doc: d, ajv: a } = published();
  let validate = cache.get(key);
  if (!validate) cache.set(key, (validate = a.compile({ ...schema(), components: d.components })));
  return validate;
};

/** A request carrying the headers of a webhook message (what the shared receivers check). */
export const isWebhookMessage = (headers: IncomingHttpHeaders): boolean =>
  headers['service-event-type'] !== undefined || headers['service-event-id'] !== undefined || headers['user-agent'] === 'Service-Webhooks/1';

/** What is wrong with one message; empty when it conforms to the document. */
export function messageProblems(headers: IncomingHttpHeaders, body: Buffer): string[] {
  const type = String(headers['service-event-type']);
  const hook = published().doc.webhooks[type];
  if (!hook) return [`Service-Event-Type ${JSON.stringify(headers['service-event-type'])} is no webhook of the document`];
  const problems: string[] = [];
  if (headers['content-type'] !== 'application/json') problems.push(`Content-Type is ${String(headers['content-type'])}`);
  for (const p of hook.post.parameters) {
    const value = headers[p.name.toLowerCase()];
    const validate = compiled(headerChecks, `${type} ${p.name}`, () => p.schema);
    if (typeof value !== 'string' || !validate(value)) problems.push(`${type}: header ${p.name} ${JSON.stringify(value)} does not match ${JSON.stringify(p.schema)}`);
  }
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return [...problems, `${type}: the body is no JSON`];
  }
  const validate = compiled(bodies, type, () => hook.post.requestBody.content['application/json'].schema);
  if (!validate(message)) problems.push(`${type}: ${validate.errors!.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
  if ((message as { id?: unknown }).id !== headers['service-event-id']) problems.push(`${type}: Service-Event-Id is not the body's id`);
  return problems;
}
