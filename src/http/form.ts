import type { Request } from 'express';
import { fail } from '../core/errors.js';
import type { FormFile, FormRules, PageForm } from '../pages/route.js';
import { hasBody } from './body.js';

const FORM_TYPE = /^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i;

/** Fields with no body at all: a button that posts nothing. */
const EMPTY: PageForm = { text: () => undefined, file: async () => null };

/**
 * The one reader of the pages' web forms, urlencoded or multipart, with Node's own fetch
 * implementation (undici): no extra dependency. The body is counted while it streams in and
 * refused beyond the row's limit; each refusal is an error in the row's own words.
 */
export async function readForm(req: Request, rules: FormRules): Promise<PageForm> {
  if (!hasBody(req)) return EMPTY;
  const { says } = rules;
  const type = req.get('content-type') ?? '';
  if (!FORM_TYPE.test(type)) throw fail('content_type_unsupported', says.notAForm);
  if (Number(req.get('content-length') ?? 0) > rules.maxBytes) throw fail('body_too_large', says.tooLarge);
  let seen = 0;
  let over = false;
  async function* limited(): AsyncGenerator<Uint8Array> {
    // Leaving the loop must not destroy the request: the rest of the body is drained after the 413 page.
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>) {
      seen += chunk.length;
      if (seen > rules.maxBytes) {
        over = true;
        throw new Error('body too large');
      }
      yield chunk;
    }
  }
  let form: FormData;
  try {
    const init = { method: 'POST', headers: { 'content-type': type }, body: limited(), duplex: 'half' };
    form = await new globalThis.Request('http://form.invalid/', init as unknown as RequestInit).formData();
  } catch {
    throw over ? fail('body_too_large', says.tooLarge) : fail('request_malformed', says.unreadable);
  }
  if (rules.maxFields !== undefined && [...form.keys()].length > rules.maxFields) {
    throw fail('body_too_large', says.tooManyFields ?? says.tooLarge);
  }
  return formOf(form);
}

function formOf(form: FormData): PageForm {
  return {
    text(name) {
      const v = form.get(name);
      return typeof v === 'string' ? v : undefined;
    },
    async file(name): Promise<FormFile | null> {
      const v = form.get(name);
      if (v === null || typeof v === 'string') return null;
      // Only the first bytes are looked at; the size comes from the part itself.
      const bytes = new Uint8Array(await v.slice(0, 16).arrayBuffer());
      return { name: v.name || 'upload', type: v.type, size: v.size, bytes };
    },
  };
}
