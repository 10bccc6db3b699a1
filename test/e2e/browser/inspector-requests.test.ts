import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useBrowserAndEmulator, type PageDocument } from '../../support/browser.js';
import { createBody, FROZEN_START, KEYS } from '../../support/harness.js';
import { jsonRequest } from '../../support/net.js';

/**
 * The inspector's requests panel in headless Chromium: the workspace's request journal newest
 * first (status and error code, the replayed and "not answered" markers, the Idempotency-Key,
 * onboarding ids linking to the onboarding view), its filters, an entry's query, headers and
 * body opened as text, and its pages.
 */
const api = (method: string, path: string, body?: unknown, key?: string) => jsonRequest(env.server.url, method, path, body, key);

/** A new workspace with a frozen clock at FROZEN_START, and its Acme owner key. */
async function newWorkspace(): Promise<{ id: string; owner: string }> {
  const ws = await api('POST', '/_emulator/workspaces', { clock: { mode: 'frozen', start: FROZEN_START } });
  expect(ws.status).toBe(201);
  const keys = ws.body.keys as { key: string }[];
  return { id: ws.body.id as string, owner: keys.find((k) => k.key.startsWith(KEYS.owner))!.key };
}

/** A /v1 request with the owner key and, when given, an Idempotency-Key; the fetch itself, so a dropped answer rejects. */
function v1(owner: string, method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' };
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  return fetch(`${env.server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
}

async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await env.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${env.server.url}${path}`);
  await page.locator('#clock-now').waitFor();
  return { page, errors };
}

const panel = (page: Page) => page.locator('#requests');
const rows = (page: Page) => page.locator('#requests-content tr[data-request]');
const shownIds = (page: Page) => rows(page).evaluateAll((trs) => trs.map((r) => r.getAttribute('data-request')));
/** The cells of one row as the viewer reads them. */
const cells = (row: Locator) => row.locator('td').allInnerTexts();

const env = useBrowserAndEmulator();

describe("the inspector's requests panel", () => {
  it('lists the requests newest first with their markers, filters them, opens one as text and links its onboarding', async () => {
    const ws = await newWorkspace();
    const { page, errors } = await open(`/_emulator/ui?workspace=${ws.id}`);
    await page.locator('#requests-content', { hasText: 'No requests yet: the requests your integration sends to /v1 appear here' }).waitFor();

    // A create whose answer a fault drops, its replay with the same key, a 404 and a 422 whose body holds markup.
    const fault = await api('POST', `/_emulator/workspaces/${ws.id}/faults`, { kind: 'drop_response_after_commit', method: 'POST', path: '/v1/onboardings' });
    expect(fault.status).toBe(201);
    await expect(v1(ws.owner, 'POST', '/v1/onboardings', createBody({ reference: 'panel' }), 'panel-key-1')).rejects.toThrow('fetch failed');
    const replay = await v1(ws.owner, 'POST', '/v1/onboardings', createBody({ reference: 'panel' }), 'panel-key-1');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const id = ((await replay.json()) as { id: string }).id;
    expect((await v1(ws.owner, 'GET', '/v1/onboardings/onb_not_there')).status).toBe(404);
    const markup = '<img src=x onerror="document.title=\'owned\'">';
    expect((await v1(ws.owner, 'POST', '/v1/onboardings?trace=1', createBody({ reference: 7, metadata: { note: markup } }))).status).toBe(422);

    // What the journal holds, to compare the page with.
    const journal = (await api('GET', `/_emulator/workspaces/${ws.id}/requests`)).body.data as { id: string; error_code: string | null; duration_ms: number }[];
    expect(journal).toHaveLength(4);
    const [invalid, missing, replayed, dropped] = journal;

    await rows(page).nth(3).waitFor({ timeout: 10_000 });
    expect(await shownIds(page)).toEqual(journal.map((e) => e.id));
    expect(await page.locator('#requests-range').innerText()).toBe('Page 1 · 4 shown of 4');
    const at = '2026-10-05 09:00:00Z';
    expect(await cells(rows(page).nth(0))).toEqual([at, 'POST', '/v1/onboardings', `422 ${invalid!.error_code!}`, '—', '—', `${invalid!.duration_ms} ms`, 'Details']);
    expect(invalid!.error_code).toBe('parameter_invalid');
    expect(await cells(rows(page).nth(1))).toEqual([at, 'GET', '/v1/onboardings/onb_not_there', `404 ${missing!.error_code!}`, '—', 'onb_not_there', `${missing!.duration_ms} ms`, 'Details']);
    expect(missing!.error_code).not.toBeNull();
    expect(await cells(rows(page).nth(2))).toEqual([at, 'POST', '/v1/onboardings', '201 replayed', 'panel-key-1', id, `${replayed!.duration_ms} ms`, 'Details']);
    expect(await cells(rows(page).nth(3))).toEqual([at, 'POST', '/v1/onboardings', '201 not answered', 'panel-key-1', id, `${dropped!.duration_ms} ms`, 'Details']);
    // An onboarding the workspace has is a link; an id it does not know is plain text.
    expect(await rows(page).nth(1).getByRole('button', { name: 'Show onboarding onb_not_there' }).count()).toBe(0);

    // Filters: by status, by error code, by method, by onboarding; Clear shows all again.
    const filter = async (fields: { method?: string; status?: string; onboarding?: string }, expected: string[]) => {
      await page.locator('#requests-method').selectOption(fields.method ?? '');
      await page.locator('#requests-status').fill(fields.status ?? '');
      await page.locator('#requests-onboarding').fill(fields.onboarding ?? '');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForFunction((want) => {
        const doc = (globalThis as unknown as { document: PageDocument }).document;
        return [...doc.querySelectorAll('#requests-content tr[data-request]')].map((r) => r.getAttribute('data-request')).join() === want;
      }, expected.join());
    };
    await filter({ status: '422' }, [invalid!.id]);
    expect(await page.locator('#requests-range').innerText()).toBe('Page 1 · 1 shown of 1 matching');
    await filter({ status: missing!.error_code! }, [missing!.id]);
    await filter({ method: 'GET' }, [missing!.id]);
    await filter({ method: 'POST', status: '201', onboarding: id }, [replayed!.id, dropped!.id]);
    await filter({ onboarding: 'onb_nobody' }, []);
    await page.locator('#requests-content', { hasText: 'No recorded request matches these filters.' }).waitFor();
    // A filter the control API refuses says so in the panel; the other panels keep updating.
    await page.locator('#requests-status').fill('42');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('#requests-content', { hasText: 'The filters were refused:' }).waitFor();
    expect(await page.locator('#clock-now').innerText()).toBe(at);
    await page.getByRole('button', { name: 'Clear' }).click();
    await rows(page).nth(3).waitFor();
    expect(await shownIds(page)).toEqual(journal.map((e) => e.id));

    // Details: the query, headers and body as JSON text; the markup in the body stays text.
    await rows(page).nth(0).getByRole('button', { name: /^Show the query, headers and body/ }).click();
    const details = page.locator(`[id="request-${invalid!.id}"]`);
    await details.waitFor();
    expect(await rows(page).nth(0).getByRole('button', { name: /^Hide the query, headers and body/ }).getAttribute('aria-expanded')).toBe('true');
    const pre = details.locator('pre');
    expect(JSON.parse(await pre.nth(0).innerText())).toEqual({ trace: '1' });
    expect(JSON.parse(await pre.nth(1).innerText())).toEqual({ idempotency_key: null, service_version: null, service_organization: null });
    expect(JSON.parse(await pre.nth(2).innerText())).toEqual(createBody({ reference: 7, metadata: { note: markup } }));
    expect(await details.innerText()).toContain('hrs_test_…'); // the masked key, never the whole one
    expect(await details.innerText()).not.toContain(ws.owner);
    expect(await page.locator('#requests-content img').count()).toBe(0);
    expect(await page.title()).not.toBe('owned');
    // It stays open while the page polls, and closes again.
    await page.waitForFunction(() => Number((globalThis as unknown as { document: PageDocument }).document.body.getAttribute('data-polls')) > 3);
    expect(await details.count()).toBe(1);
    await rows(page).nth(0).getByRole('button', { name: /^Hide the query, headers and body/ }).click();
    await details.waitFor({ state: 'detached' });

    // The dropped request opens as not answered; its onboarding id opens the onboarding view.
    await rows(page).nth(3).getByRole('button', { name: /^Show the query, headers and body/ }).click();
    await page.locator(`[id="request-${dropped!.id}"]`, { hasText: 'Not answered: an injected fault dropped it; 201 is what it would have been.' }).waitFor();
    await rows(page).nth(2).getByRole('button', { name: `Show onboarding ${id}` }).click();
    await page.locator('#onboarding-heading', { hasText: id }).waitFor();
    expect(new URL(page.url()).searchParams.get('onboarding')).toBe(id);
    // The only console errors are the browser logging the refused filter's 422 (once per poll
    // while it was set); nothing failed in the script.
    expect(errors.length).toBeGreaterThan(0);
    expect(new Set(errors)).toEqual(new Set(['Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']));
    await page.close();
  });

  it('shows 25 requests a page; "Older" shows the next and stays there while new requests arrive; "Newer" and "Latest" go back', async () => {
    const ws = await newWorkspace();
    for (let i = 0; i < 30; i++) expect((await v1(ws.owner, 'GET', `/v1/onboardings?limit=${i + 1}`)).status).toBe(200);
    const ids = async () => ((await api('GET', `/_emulator/workspaces/${ws.id}/requests`)).body.data as { id: string }[]).map((e) => e.id);
    const all = await ids();
    const { page, errors } = await open(`/_emulator/ui?workspace=${ws.id}`);
    await rows(page).first().waitFor();
    expect(await shownIds(page)).toEqual(all.slice(0, 25));
    expect(await panel(page).getByRole('button', { name: 'Newer' }).isDisabled()).toBe(true);

    await panel(page).getByRole('button', { name: 'Older' }).click();
    await page.locator('#requests-range', { hasText: 'Page 2 · 5 shown of 30' }).waitFor();
    expect(await shownIds(page)).toEqual(all.slice(25));
    expect(await panel(page).getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);

    // A new request while the viewer reads the older page: the same rows stay, only the count moves.
    expect((await v1(ws.owner, 'GET', '/v1/onboardings')).status).toBe(200);
    await page.locator('#requests-range', { hasText: 'Page 2 · 5 shown of 31' }).waitFor({ timeout: 10_000 });
    expect(await shownIds(page)).toEqual(all.slice(25));

    await panel(page).getByRole('button', { name: 'Newer' }).click();
    await page.locator('#requests-range', { hasText: 'Page 1 · 25 shown of 31' }).waitFor();
    expect(await shownIds(page)).toEqual((await ids()).slice(0, 25));
    await panel(page).getByRole('button', { name: 'Older' }).click();
    await page.locator('#requests-range', { hasText: 'Page 2' }).waitFor();
    await panel(page).getByRole('button', { name: 'Latest (live)' }).click();
    await page.locator('#requests-range', { hasText: 'Page 1 · 25 shown of 31' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
