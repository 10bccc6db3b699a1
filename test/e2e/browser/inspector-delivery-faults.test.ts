import { describe, expect, it } from 'vitest';
import { useBrowserAndEmulator, type PageDocument } from '../../support/browser.js';
import { FROZEN_START, KEYS } from '../../support/harness.js';
import { jsonRequest } from '../../support/net.js';
import { answer, useReceivers } from '../../support/receiver.js';

/**
 * The inspector in headless Chromium shows what injected delivery faults did: a mark on each
 * delivery a fault took, in words, and on the attempt that carried it (a lost acknowledgement
 * with the status the receiver really answered).
 */
const api = (method: string, path: string, body?: unknown, key?: string) => jsonRequest(env.server.url, method, path, body, key);
const env = useBrowserAndEmulator();
const receivers = useReceivers();

describe("the inspector's marks of delivery faults", () => {
  it('marks the duplicated message, its copy, and the attempt whose acknowledgement was dropped', async () => {
    const ws = await api('POST', '/_emulator/workspaces', { clock: { mode: 'frozen', start: FROZEN_START } });
    expect(ws.status).toBe(201);
    const owner = (ws.body.keys as { key: string }[]).find((k) => k.key.startsWith(KEYS.owner))!.key;
    const at = (path: string) => `/_emulator/workspaces/${ws.body.id}${path}`;
    const r = await receivers.start(answer(200));
    const hook = await api('POST', '/v1/webhooks', { url: r.url() }, owner);
    expect(hook.status).toBe(201);
    expect((await api('POST', at('/delivery-faults'), { kind: 'duplicate', delay_ms: 5000 })).status).toBe(201);
    expect((await api('POST', at('/delivery-faults'), { kind: 'drop_ack' })).status).toBe(201);
    const first = await api('POST', `/v1/webhooks/${hook.body.id}/test`, {}, owner);
    const second = await api('POST', `/v1/webhooks/${hook.body.id}/test`, {}, owner);
    expect((await api('POST', at('/clock/advance'), { by: '10s' })).status).toBe(200);
    const listed = (await api('GET', at(`/webhooks/${hook.body.id}/deliveries`))).body.data as { id: string; injected?: { duplicate_of?: string } }[];
    const copy = listed.find((d) => d.injected?.duplicate_of)!;
    const firstId = first.body.delivery_id as string;
    const secondId = second.body.delivery_id as string;

    const page = await env.browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.server.url}/_emulator/ui?workspace=${ws.body.id}`);
    const row = (id: string) => page.locator(`tr[data-delivery="${id}"]`);
    await row(firstId).locator('.badge', { hasText: `injected: sent again as ${copy.id}` }).waitFor();
    expect(await row(copy.id).locator('.s-injected').innerText()).toBe(`injected: a copy of ${firstId}`);
    const attemptsOf = (id: string) => row(id).locator('xpath=following-sibling::tr[1]').locator('ol.attempts > li');
    expect(await attemptsOf(copy.id).first().locator('.s-injected').innerText()).toBe('injected: duplicate');
    expect(await attemptsOf(firstId).first().locator('.s-injected').count()).toBe(0);
    expect(await row(secondId).locator('.s-injected').innerText()).toBe('injected: drop ack');
    const dropped = attemptsOf(secondId).first();
    expect(await dropped.innerText()).toContain('no answer');
    expect(await dropped.locator('.s-injected').innerText()).toBe('injected: drop ack (the receiver answered HTTP 200)');

    // A laptop's widths, where the webhooks panel is half the page: the marks wrap in their cell,
    // and every Retry button stays inside the panel.
    for (const width of [1280, 1300, 1340, 1366, 1400]) {
      await page.setViewportSize({ width, height: 900 });
      const overflow = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: PageDocument }).document;
        return [...doc.querySelectorAll('#webhooks-content tr[data-delivery] button')].map((b) => b.getBoundingClientRect().right - b.closest('.panel')!.getBoundingClientRect().right);
      });
      expect(overflow.length).toBeGreaterThan(0);
      for (const px of overflow) expect(px, `a Retry button past its panel at ${width} px`).toBeLessThanOrEqual(0);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
