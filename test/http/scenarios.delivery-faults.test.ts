import { describe, expect, it } from 'vitest';
import { harness, type Harness } from '../support/harness.js';
import { iso, MINUTE, START_MS } from '../support/webhooks.js';

/**
 * Delivery faults declared by a scenario file (`delivery_faults`): checked with the scenario's
 * mistakes and paths, added when it loads with windows counted from then, replaced by the next
 * scenario (faults added through the API stay), and added again by a reset.
 */
const load = (h: Harness, doc: object) => h.http().put('/_emulator/scenario').send(doc);
const faults = async (h: Harness) => (await h.http().get('/_emulator/delivery-faults')).body.data as Record<string, unknown>[];
const scenario = (delivery_faults: object[]) => ({ version: 1, name: 'chaos', rules: [], delivery_faults });

describe('a scenario with delivery_faults', () => {
  it('is refused with every mistake at its path, in the words of the file', async () => {
    const h = harness();
    const res = await load(h, scenario([
      { kind: 'delay' },
      { kind: 'drop_ack', delay: '10s' },
      { kind: 'duplicate', delay: '2d' },
      { kind: 'reorder', for: 0 },
      { kind: 'shuffle' },
      { kind: 'duplicate', after: 'soon' },
    ]));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('scenario_invalid');
    const byPath = Object.fromEntries((res.body.error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]));
    expect(byPath['delivery_faults[0].delay']).toBe('a delay fault needs delay (1 to 86400000).');
    expect(byPath['delivery_faults[1].delay']).toBe('only duplicate, delay and reorder faults take delay, not drop_ack.');
    expect(byPath['delivery_faults[2].delay']).toBe('must be longer than 0 and at most 24 hours');
    expect(byPath['delivery_faults[3].for']).toBe('must be longer than 0');
    expect(byPath['delivery_faults[4].kind']).toMatch(/^must be one of: duplicate, reorder/);
    expect(byPath['delivery_faults[5].after']).toBe('"soon" is not a delay');
    expect(await faults(h)).toEqual([]);
  });

  it('adds its faults when loaded, windows counted from then; the next scenario replaces them, API faults stay; a reset adds them again', async () => {
    const h = harness();
    await h.http().post('/_emulator/clock/advance').send({ by: '1m' });
    const own = (await h.http().post('/_emulator/delivery-faults').send({ kind: 'drop_ack' })).body;
    expect((await load(h, scenario([{ kind: 'delay', delay: '5m', after: '1h', for: '30m' }, { kind: 'duplicate', url: 'http://127.0.0.1:4000/*', count: 3 }]))).status).toBe(200);
    expect(await faults(h)).toMatchObject([
      { id: own.id, source: 'api' },
      { id: 'dft_scenario_1', kind: 'delay', delay_ms: 300_000, from: iso(START_MS + 61 * MINUTE), until: iso(START_MS + 91 * MINUTE), count: null, source: 'scenario' },
      { id: 'dft_scenario_2', kind: 'duplicate', url: 'http://127.0.0.1:4000/*', count: 3, delay_ms: 60_000, from: null, until: null, source: 'scenario' },
    ]);
    expect((await load(h, scenario([{ kind: 'stale_timestamp' }]))).status).toBe(200);
    expect((await faults(h)).map((f) => [f.id, f.kind])).toEqual([[own.id, 'drop_ack'], ['dft_scenario_1', 'stale_timestamp']]);
    expect((await h.http().delete('/_emulator/scenario')).status).toBe(200);
    expect((await faults(h)).map((f) => f.id)).toEqual([own.id]);
    await load(h, scenario([{ kind: 'reorder', for: '1h' }]));
    expect((await h.http().post('/_emulator/reset').send({})).status).toBe(200);
    // The reset empties the list (the API's fault included) and puts the scenario's back, from the clock's start.
    expect(await faults(h)).toMatchObject([{ id: 'dft_scenario_1', kind: 'reorder', until: iso(START_MS + 60 * MINUTE) }]);
  });
});
