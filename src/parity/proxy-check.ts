import { makeAjv } from '../core/ajv.js';
import { operationOf, operationsOf } from './coverage.js';

/**
 * Each answer of a /v1 operation held to the OpenAPI document the caller hands in: its status
 * must be one the operation lists, its JSON body must fit that status's schema. A violation is
 * reported as a validation proxy reports one: where (a JSON path), what, and how bad.
 */
export interface Violation {
  /** `$.data[0].status`; `$` for the answer as a whole. */
  location: string;
  message: string;
  severity: 'error' | 'warning';
}

type Json = Record<string, unknown>;
type Validate = ReturnType<ReturnType<typeof makeAjv>['compile']>;

const DOCUMENT_ID = 'parity-openapi.json';

/** A JSON pointer's segment, written so a URI fragment holds it (`/v1/x/{id}` → `~1v1~1x~1%7Bid%7D`). */
const segment = (s: string): string => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));

/** `/data/0/status` as `$.data[0].status`. */
function jsonPath(pointer: string): string {
  return `$${pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`))
    .join('')}`;
}

export interface ResponseChecker {
  /** The operation a request is (`GET /v1/onboardings/{id}`), if the document has it. */
  operation(method: string, path: string): string | undefined;
  /** The answer's violations; none for a request of no /v1 operation. */
  check(method: string, path: string, status: number, contentType: string | undefined, body: unknown): Violation[];
}

export function responseChecker(document: object): ResponseChecker {
  const doc = document as { paths?: Record<string, Record<string, Json>> };
  const operations = operationsOf(doc);
  const ajv = makeAjv(false, { validateFormats: true });
  ajv.addSchema(document as Json, DOCUMENT_ID);
  const compiled = new Map<string, Validate | string>();

  /** A `$ref` to `#/components/...` followed: the object and the pointer it sits at. */
  const resolve = (value: Json, pointer: string): [Json, string] => {
    for (let hops = 0; typeof value.$ref === 'string' && value.$ref.startsWith('#/') && hops < 10; hops++) {
      const ref = value.$ref;
      const target = ref.slice(2).split('/').map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~')).reduce<unknown>((v, k) => (v as Json | undefined)?.[k], document);
      if (target === null || typeof target !== 'object') break;
      value = target as Json;
      pointer = ref.slice(1);
    }
    return [value, pointer];
  };

  /** The validator of an answer's body, or why there is none to run. */
  const validatorOf = (op: string, status: number): { validate?: Validate; listed: boolean; why?: string } => {
    const [method, template] = op.split(' ') as [string, string];
    const responses = (doc.paths?.[template]?.[method.toLowerCase()]?.responses ?? {}) as Record<string, Json>;
    const key = responses[String(status)] ? String(status) : responses[`${String(status)[0]}XX`] ? `${String(status)[0]}XX` : responses.default ? 'default' : undefined;
    const listed = key !== undefined && key !== 'default';
    if (key === undefined) return { listed };
    const cacheKey = `${op} ${key}`;
    if (!compiled.has(cacheKey)) {
      const [response, at] = resolve(responses[key]!, `/paths/${segment(template)}/${method.toLowerCase()}/responses/${segment(key)}`);
      const content = response.content as Record<string, Json> | undefined;
      const media = content && Object.keys(content).find((m) => /json/.test(m));
      if (!media || !content![media]!.schema) compiled.set(cacheKey, 'no JSON schema');
      else {
        try {
          compiled.set(cacheKey, ajv.compile({ $ref: `${DOCUMENT_ID}#${at}/content/${segment(media)}/schema` }));
        } catch (err) {
          compiled.set(cacheKey, `the schema does not compile: ${(err as Error).message}`);
        }
      }
    }
    const v = compiled.get(cacheKey)!;
    return typeof v === 'string' ? { listed, why: v } : { listed, validate: v };
  };

  const operation = (method: string, path: string) => (path.startsWith('/v1/') ? operationOf(method, path, operations) : undefined);

  return {
    operation,
    check(method, path, status, contentType, body) {
      const op = operation(method, path);
      if (!op) return [];
      const out: Violation[] = [];
      const { validate, listed, why } = validatorOf(op, status);
      if (!listed) out.push({ location: '$', message: `${op} lists no ${status} answer`, severity: 'error' });
      if (!validate || status === 204 || body === undefined) return out;
      if (!/json/.test(contentType ?? '')) {
        out.push({ location: '$', message: `the answer is ${contentType ?? 'without a Content-Type'}, the document says JSON`, severity: 'error' });
        return out;
      }
      if (why) return out;
      if (!validate(body)) {
        const seen = new Set<string>();
        for (const e of validate.errors ?? []) {
          const params = e.params as { missingProperty?: string; additionalProperty?: string };
          const extra = params.missingProperty ?? params.additionalProperty;
          const v: Violation = { location: jsonPath(`${e.instancePath}${extra === undefined ? '' : `/${extra}`}`), message: e.message ?? 'is not valid', severity: 'error' };
          // A schema reached by two branches reports the same mistake twice.
          if (!seen.has(`${v.location} ${v.message}`)) out.push(v);
          seen.add(`${v.location} ${v.message}`);
        }
      }
      return out;
    },
  };
}
