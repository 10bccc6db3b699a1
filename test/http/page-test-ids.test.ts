import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_IDS, testIdsDocument, testIdsMarkdown, type PageTestId } from '../../src/pages/test-ids.js';
import { harness, KEYS, type Harness } from '../support/harness.js';
import { contractSent, created, details, GOOD, lastCode, signedIn } from '../support/hosted-flow.js';
import { submitted } from '../support/journey.js';

/**
 * The pages' selector contract held to the pages: every page and state a partner's test meets
 * is rendered over HTTP, and its data-testids are collected. Every id of the table is on some
 * page, no page carries an id the table lacks, and an id that marks one element is on a page
 * once. The published forms of the table (test-ids.json, docs/pages.md) are what it generates.
 */
const idsOf = (text: string): string[] => [...text.matchAll(/data-testid="([^"]+)"/g)].map((m) => m[1]!);

/** Ids that mark one of several like elements (a radio each): they repeat by design. */
const REPEATING: ReadonlySet<PageTestId> = new Set(['sign-in-user', 'approve-role']);

interface Seen {
  page: string;
  ids: string[];
}

async function hostedStates(h: Harness): Promise<Seen[]> {
  const seen: Seen[] = [];
  const take = (page: string, text: string) => seen.push({ page, ids: idsOf(text) });
  take('hosted: not found', (await h.http().get('/hosted/no-such-link')).text);

  const fresh = await created(h);
  take('hosted: code', (await h.http().get(fresh.path)).text);
  take('hosted: code, wrong', (await h.http().post(`${fresh.path}/code`).type('form').send({ code: '000000' })).text);
  await h.http().post(`${fresh.path}/code/new`).type('form').send({});
  take('hosted: code, a new one sent', (await h.http().get(fresh.path)).text);
  let voided = '';
  for (let i = 0; i < 5; i++) voided = (await h.http().post(`${fresh.path}/code`).type('form').send({ code: '000000' })).text;
  take('hosted: code, void', voided);

  const s = await signedIn(h);
  take('hosted: details', (await h.http().get(s.path).set('Cookie', s.cookie)).text);
  const empty = Object.fromEntries(Object.keys(GOOD).map((k) => [k, '']));
  take('hosted: details, every field wrong', (await details(h, s, empty, null)).text);
  expect((await details(h, s)).status).toBe(303);
  take('hosted: in review', (await h.http().get(s.path).set('Cookie', s.cookie)).text);
  take('hosted: refused', (await details(h, s)).text);
  const back = await h.http().post(`/_emulator/onboardings/${s.id}/return`).send({ to: 'employee', reason: 'The IBAN is of someone else' });
  expect(back.status, back.text).toBe(200);
  take('hosted: details, returned', (await h.http().get(s.path).set('Cookie', s.cookie)).text);
  expect((await details(h, s)).status).toBe(303);
  contractSent(h, s.id);
  take('hosted: contract', (await h.http().get(s.path).set('Cookie', s.cookie)).text);
  const signed = await h.http().post(`${s.path}/sign`).set('Cookie', s.cookie).type('form').send({});
  expect(signed.status, signed.text).toBe(303);
  take('hosted: signed', (await h.http().get(s.path).set('Cookie', s.cookie)).text);

  const cancelled = await created(h);
  expect((await h.as(KEYS.owner).post(`/v1/onboardings/${cancelled.id}/cancel`)).status).toBe(200);
  take('hosted: cancelled', (await h.http().get(cancelled.path)).text);
  expect(lastCode(h, fresh.id)).toMatch(/^\d+$/);
  return seen;
}

async function reviewStates(h: Harness): Promise<Seen[]> {
  const seen: Seen[] = [];
  const take = (page: string, text: string) => seen.push({ page, ids: idsOf(text) });
  const ONB = 'onb_demo_jansen';
  submitted(h.emulator.defaultWorkspace, ONB);
  const session = await h.as(KEYS.manager).post(`/v1/onboardings/${ONB}/review-sessions`).send({ reviewer: { email: 'mark.manager@acme.test', external_id: 'user-42', name: 'Mark' } });
  expect(session.status, session.text).toBe(201);
  const path = new URL(session.body.review_url as string).pathname;
  const page = await h.http().get(path);
  take('review: sign-in', page.text);
  const token = /name="action_token" value="([^"]+)"/.exec(page.text)![1]!;
  const post = (suffix: string, fields: Record<string, string> = {}) => h.http().post(`${path}/${suffix}`).type('form').send({ action_token: token, ...fields });
  take('review: signed in', (await post('sign-in', { user_id: 'usr_acme_mark' })).text);
  const confirmed = await post('identity-verification');
  take('review: identity confirmed', confirmed.text);
  take('review: returned', (await post('return', { to: 'employee', reason: 'The IBAN is of someone else' })).text);
  take('review: not found', (await h.http().get('/review/no-such-review')).text);
  return seen;
}

describe('the selector contract', () => {
  it('every id of the table is on a page, every id on a page is in the table, one element an id', async () => {
    const seen = [...(await hostedStates(harness())), ...(await reviewStates(harness()))];
    const table = new Set(Object.keys(PAGE_TEST_IDS));
    const onPages = new Set(seen.flatMap((s) => s.ids));
    expect([...table].filter((id) => !onPages.has(id)), 'ids of the table on no page').toEqual([]);
    expect([...onPages].filter((id) => !table.has(id)), 'ids on a page the table lacks').toEqual([]);
    for (const s of seen) {
      const twice = s.ids.filter((id, i) => s.ids.indexOf(id) !== i && !REPEATING.has(id as PageTestId));
      expect(twice, s.page).toEqual([]);
      // Every page a person lands on names itself.
      expect(s.ids, s.page).toContain('page-title');
    }
    console.info(`selector contract: ${table.size} ids over ${seen.length} page states`);
  }, 30_000);

  it('is published as the table says: test-ids.json and docs/pages.md (regenerate with `npm run docs:test-ids`)', () => {
    expect(readFileSync('test-ids.json', 'utf8')).toBe(`${JSON.stringify(testIdsDocument(), null, 2)}\n`);
    expect(readFileSync('docs/pages.md', 'utf8')).toContain(`<!-- test-ids:start -->\n${testIdsMarkdown()}<!-- test-ids:end -->`);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(pkg.files).toContain('test-ids.json');
    expect(pkg.exports['./test-ids.json']).toBe('./test-ids.json');
  });
});
