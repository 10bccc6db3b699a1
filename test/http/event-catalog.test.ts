import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator, verifySignature } from '../../src/index.js';
import { EVENT_TYPES, OLDER_NAMES } from '../../src/resources/events/events.model.js';
import { harness } from '../support/harness.js';

/**
 * GET /_emulator/events/catalog over HTTP: every event type once, when it is sent as the state
 * machine's table says (GET /_emulator/state-machine), and a sample that verifies with the
 * package's verifySignature and conforms to the schema its schema_ref names in /openapi.json.
 */
// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface Entry {
  type: string;
  older_name_of: string | null;
  also_sent_as: string | null;
  subscribable: boolean;
  transitions: { trigger: string; from: string[]; to: string | null }[];
  requests: string[];
  when: string;
  schema_ref: string;
  sample: { body: string; message: Record<string, unknown>; headers: Record<string, string> };
}
interface Catalog { object: string; sample_secret: string; sample_signed_at: number; data: Entry[] }

const h = harness();
const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const em of opened) await em.close();
});

describe('GET /_emulator/events/catalog', () => {
  it('lists every type once, when the state machine sends it, and a sample that verifies and conforms to /openapi.json', async () => {
    const res = await h.http().get('/_emulator/events/catalog');
    expect(res.status, res.text).toBe(200);
    const catalog = res.body as Catalog;
    expect(catalog.object).toBe('event_catalog');
    expect(catalog.data.map((e) => e.type)).toEqual([...EVENT_TYPES]);

    const machine = (await h.http().get('/_emulator/state-machine')).body as { triggers: { name: string; events: string[] }[] };
    const doc = (await h.http().get('/openapi.json')).body as { components: Record<string, unknown> };
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const currentOf = Object.fromEntries(Object.entries(OLDER_NAMES).map(([current, older]) => [older, current]));

    for (const entry of catalog.data) {
      const { sample } = entry;
      // The sample: the exact text signed, with the message's headers.
      expect(JSON.parse(sample.body)).toEqual(sample.message);
      expect(sample.headers).toMatchObject({ 'Content-Type': 'application/json', 'User-Agent': 'Service-Webhooks/1', 'Service-Event-Id': sample.message.id, 'Service-Event-Type': entry.type });
      expect(verifySignature(sample.body, sample.headers['Service-Signature']!, catalog.sample_secret, { now: catalog.sample_signed_at }), entry.type).toBe(true);
      // Its schema, by reference into the published document.
      const pointer = /^\/openapi\.json#\/components\/schemas\/(\w+)$/.exec(entry.schema_ref);
      expect(pointer, entry.schema_ref).not.toBeNull();
      const validate = ajv.compile({ $ref: `#/components/schemas/${pointer![1]}`, components: doc.components });
      expect(validate(sample.message), `${entry.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validate({ ...sample.message, type: 'onboarding.unknown' })).toBe(false);

      // When: the triggers of the state machine that emit it (an older name: those of its current name).
      const name = currentOf[entry.type] ?? entry.type;
      const triggers = machine.triggers.filter((t) => t.events.includes(name)).map((t) => t.name);
      expect(entry.transitions.map((t) => t.trigger), entry.type).toEqual(triggers);
      expect(entry.older_name_of).toBe(currentOf[entry.type] ?? null);
      expect(entry.also_sent_as).toBe(OLDER_NAMES[entry.type as keyof typeof OLDER_NAMES] ?? null);
      for (const t of entry.transitions) expect(entry.when).toContain(t.trigger);
      if (entry.type === 'ping') {
        expect(entry).toMatchObject({ subscribable: false, transitions: [], requests: ['POST /v1/webhooks/{id}/test', 'POST /_emulator/trigger'] });
      } else {
        expect(entry.transitions.length, entry.type).toBeGreaterThan(0);
        expect(entry).toMatchObject({ subscribable: true, requests: [] });
      }
    }
    expect(catalog.data.find((e) => e.type === 'onboarding.submitted')).toMatchObject({ older_name_of: 'onboarding.employee_submitted', transitions: [{ trigger: 'employee_submit', from: ['pending_employee'], to: 'in_review' }] });
  });

  it('is the same through the Node client, and the same on every start', async () => {
    const em = createEmulator();
    opened.push(em);
    const over = (await h.http().get('/_emulator/events/catalog')).body as Catalog;
    expect(await em.eventCatalog()).toEqual(over);
  });
});
