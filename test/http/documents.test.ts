import { readFileSync } from 'node:fs';
import type { Response } from 'superagent';
import { describe, expect, it } from 'vitest';
import { envelope, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';
import { signed, submitted } from '../support/journey.js';

const EMPLOYER_FIXTURE = 'onb_demo_jansen'; // created by hrs_test_acme_owner
const PARTNER_FIXTURE = 'onb_demo_partner'; // created by hrs_test_hrsoft for org_acme

interface Doc { id: string; kind: string; title: string | null; uploaded_at: string; downloadable: boolean }

const fixtureFile = (name: string) => readFileSync(new URL(`../../fixtures/documents/${name}`, import.meta.url));

/** Collects the body as bytes whatever its media type. */
const bytes = (res: Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

async function documentsOf(h: Harness, id: string, key: string = KEYS.owner): Promise<Doc[]> {
  const res = await h.as(key).get(`/v1/onboardings/${id}/documents`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Doc[];
}

const download = (h: Harness, id: string, docId: string, key: string = KEYS.owner) =>
  h.as(key).get(`/v1/onboardings/${id}/documents/${docId}`).buffer(true).parse(bytes);

/** A download answered 200 with exactly the bytes of this file of fixtures/documents. */
function expectFile(res: { status: number; body: unknown }, file: string) {
  expect(res.status).toBe(200);
  expect(Buffer.isBuffer(res.body), 'the body is read as bytes').toBe(true);
  expect(Buffer.compare(res.body as Buffer, fixtureFile(file)), file).toBe(0);
}

describe('the files in fixtures/documents', () => {
  it.each([
    ['identity-document.jpg', [0xff, 0xd8, 0xff]],
    ['photo.jpg', [0xff, 0xd8, 0xff]],
    ['signature.png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
    ['payroll-tax-form.pdf', [...Buffer.from('%PDF-1.')]],
    ['contract.pdf', [...Buffer.from('%PDF-1.')]],
  ])('%s is a small real file of its type', (name, magic) => {
    const file = fixtureFile(name);
    expect([...file.subarray(0, magic.length)]).toEqual(magic);
    expect(file.length).toBeLessThan(10_000);
    if (name.endsWith('.pdf')) expect(file.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    if (name.endsWith('.jpg')) expect([...file.subarray(-2)]).toEqual([0xff, 0xd9]);
  });
});

describe('GET /v1/onboardings/{id}/documents', () => {
  it('is an empty list before the employee submitted', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}/documents`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  it('lists identity document, photo and payroll tax form after the employee submitted, oldest first', async () => {
    const h = harness();
    submitted(h.emulator.defaultWorkspace, EMPLOYER_FIXTURE);
    const res = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}/documents`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    const docs = res.body.data as Doc[];
    expect(docs.map((d) => [d.kind, d.downloadable])).toEqual([
      ['identity_document', false],
      ['photo', true],
      ['payroll_tax_form', true],
    ]);
    for (const d of docs) {
      expect(Object.keys(d).sort()).toEqual(['downloadable', 'id', 'kind', 'title', 'uploaded_at']);
      expect(d.id).toMatch(/^doc_/);
      expect(d.uploaded_at).toBe(FROZEN_START);
      expect(typeof d.title).toBe('string');
    }
    // The same documents as in GET /v1/onboardings/{id}.
    const onboarding = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}`);
    expect(onboarding.body.documents).toEqual(docs);
  });

  it('adds contract and signature once the contract is signed', async () => {
    const h = harness();
    signed(h.emulator.defaultWorkspace, EMPLOYER_FIXTURE);
    const kinds = (await documentsOf(h, EMPLOYER_FIXTURE)).map((d) => d.kind);
    expect(kinds).toEqual(['identity_document', 'photo', 'payroll_tax_form', 'contract', 'signature']);
  });

  it('pages with limit and starting_after', async () => {
    const h = harness();
    signed(h.emulator.defaultWorkspace, EMPLOYER_FIXTURE);
    const all = await documentsOf(h, EMPLOYER_FIXTURE);
    const first = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}/documents?limit=2`);
    expect(first.body.data.map((d: Doc) => d.id)).toEqual(all.slice(0, 2).map((d) => d.id));
    expect(first.body).toMatchObject({ has_more: true, next_cursor: all[1]!.id });
    const rest = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}/documents?limit=100&starting_after=${all[1]!.id}`);
    expect(rest.body.data.map((d: Doc) => d.id)).toEqual(all.slice(2).map((d) => d.id));
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
    for (const query of ['limit=0', 'limit=101', 'starting_after=doc_nope', 'kind=photo']) {
      const res = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}/documents?${query}`);
      expect(res.status, query).toBe(422);
      envelope(res);
    }
  });

  it('answers 404 for an unknown onboarding, and for one of the other environment', async () => {
    const h = harness();
    for (const [key, id] of [[KEYS.owner, 'onb_nope'], [KEYS.live, EMPLOYER_FIXTURE]] as const) {
      const res = await h.as(key).get(`/v1/onboardings/${id}/documents`);
      expect(res.status).toBe(404);
      expect(envelope(res).code).toBe('resource_not_found');
    }
  });
});

describe('GET /v1/onboardings/{id}/documents/{documentId}', () => {
  it('serves each downloadable kind with its media type and the exact bytes of the shipped file', async () => {
    const h = harness();
    signed(h.emulator.defaultWorkspace, EMPLOYER_FIXTURE);
    const expected: Record<string, [string, string]> = {
      photo: ['image/jpeg', 'photo.jpg'],
      payroll_tax_form: ['application/pdf', 'payroll-tax-form.pdf'],
      contract: ['application/pdf', 'contract.pdf'],
      signature: ['image/png', 'signature.png'],
    };
    const docs = (await documentsOf(h, EMPLOYER_FIXTURE)).filter((d) => d.downloadable);
    expect(docs.map((d) => d.kind).sort()).toEqual(Object.keys(expected).sort());
    for (const d of docs) {
      const [type, file] = expected[d.kind]!;
      const res = await download(h, EMPLOYER_FIXTURE, d.id);
      expectFile(res, file);
      expect(res.headers['content-type']).toBe(type);
      expect(Number(res.headers['content-length'])).toBe(fixtureFile(file).length);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${file}"`);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['request-id']).toMatch(/^req_/);
    }
    // Served from memory after the first read: the same bytes again.
    const again = await download(h, EMPLOYER_FIXTURE, docs[0]!.id);
    expectFile(again, expected[docs[0]!.kind]![1]);
  });

  it('refuses the identity document: listed, not downloadable (403 document_not_downloadable)', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    submitted(ws, EMPLOYER_FIXTURE);
    const identity = (await documentsOf(h, EMPLOYER_FIXTURE)).find((d) => d.kind === 'identity_document')!;
    const res = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}/documents/${identity.id}`);
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const e = envelope(res);
    expect(e).toMatchObject({ type: 'permission_error', code: 'document_not_downloadable', param: 'documentId' });
    expect(ws.auditLog).toEqual([]);
  });

  it('answers 404 for an unknown document and for a document of another onboarding', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    submitted(ws, EMPLOYER_FIXTURE);
    submitted(ws, PARTNER_FIXTURE);
    const foreign = (await documentsOf(h, PARTNER_FIXTURE)).find((d) => d.kind === 'photo')!;
    for (const docId of ['doc_nope', foreign.id]) {
      const res = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}/documents/${docId}`);
      expect(res.status).toBe(404);
      expect(envelope(res)).toMatchObject({ code: 'resource_not_found', param: 'documentId' });
    }
    const res = await h.as(KEYS.owner).get(`/v1/onboardings/onb_nope/documents/${foreign.id}`);
    expect(envelope(res)).toMatchObject({ code: 'resource_not_found', param: 'id' });
    expect(ws.auditLog).toEqual([]);
  });

  it('records every download in the audit log, in order, and nothing for refusals', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    submitted(ws, EMPLOYER_FIXTURE);
    const docs = await documentsOf(h, EMPLOYER_FIXTURE);
    const photo = docs.find((d) => d.kind === 'photo')!;
    const form = docs.find((d) => d.kind === 'payroll_tax_form')!;
    expectFile(await download(h, EMPLOYER_FIXTURE, photo.id), 'photo.jpg');
    ws.clock.advance(60_000);
    expectFile(await download(h, EMPLOYER_FIXTURE, form.id, KEYS.readonly), 'payroll-tax-form.pdf');
    expect((await download(h, EMPLOYER_FIXTURE, photo.id, KEYS.noscopes)).status).toBe(403);
    expect((await download(h, EMPLOYER_FIXTURE, 'doc_nope')).status).toBe(404);
    expect(ws.auditLog).toEqual([
      {
        at: FROZEN_START, action: 'document.download', key: KEYS.owner, user_id: 'usr_acme_olivia', organization_id: 'org_acme',
        onboarding_id: EMPLOYER_FIXTURE, document_id: photo.id, document_kind: 'photo',
      },
      {
        at: '2026-10-05T09:01:00.000Z', action: 'document.download', key: KEYS.readonly, user_id: 'usr_acme_olivia', organization_id: 'org_acme',
        onboarding_id: EMPLOYER_FIXTURE, document_id: form.id, document_kind: 'payroll_tax_form',
      },
    ]);
    // Neither listing nor HEAD (headers only, no file leaves) is a download.
    await documentsOf(h, EMPLOYER_FIXTURE);
    const head = await h.http().head(`/v1/onboardings/${EMPLOYER_FIXTURE}/documents/${photo.id}`).set('Authorization', `Bearer ${KEYS.owner}`);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('image/jpeg');
    expect(Number(head.headers['content-length'])).toBe(fixtureFile('photo.jpg').length);
    expect(ws.auditLog).toHaveLength(2);
  });
});

describe('over HTTP only: the sandbox advance and the control API', () => {
  it('documents appear after the sandbox step employee_submitted; downloads show in GET /_emulator/audit-log', async () => {
    const h = harness();
    const steps = [];
    for (let i = 0; i < 2; i++) steps.push((await h.as(KEYS.owner).post(`/v1/sandbox/onboardings/${EMPLOYER_FIXTURE}/advance`)).body.step);
    expect(steps).toEqual(['employee_opened', 'employee_submitted']);
    const photo = (await documentsOf(h, EMPLOYER_FIXTURE)).find((d) => d.kind === 'photo')!;
    expectFile(await download(h, EMPLOYER_FIXTURE, photo.id, KEYS.manager), 'photo.jpg');
    const log = await h.http().get('/_emulator/audit-log');
    expect(log.status).toBe(200);
    expect(log.body.data).toEqual([
      {
        // The key that downloaded, masked as every control answer shows a key (its last 6 characters).
        at: FROZEN_START, action: 'document.download', key: 'hrs_test_…anager', user_id: 'usr_acme_mark', organization_id: 'org_acme',
        onboarding_id: EMPLOYER_FIXTURE, document_id: photo.id, document_kind: 'photo',
      },
    ]);
  });
});

describe('scope documents:read and visibility', () => {
  it('refuses keys without documents:read on both endpoints (403 scope_missing)', async () => {
    const h = harness();
    submitted(h.emulator.defaultWorkspace, EMPLOYER_FIXTURE);
    const photo = (await documentsOf(h, EMPLOYER_FIXTURE)).find((d) => d.kind === 'photo')!;
    for (const path of [`/v1/onboardings/${EMPLOYER_FIXTURE}/documents`, `/v1/onboardings/${EMPLOYER_FIXTURE}/documents/${photo.id}`]) {
      for (const key of [KEYS.noscopes, KEYS.payflow]) {
        const res = await h.as(key).get(path);
        expect(res.status, `${key} ${path}`).toBe(403);
        expect(envelope(res)).toMatchObject({ type: 'permission_error', code: 'scope_missing' });
      }
      expect((await h.http().get(path)).status).toBe(401);
    }
    expect(h.emulator.defaultWorkspace.auditLog).toEqual([]);
  });

  it('lets keys with documents:read but without dossier access list and download (visibility as GET onboarding)', async () => {
    const h = harness();
    submitted(h.emulator.defaultWorkspace, EMPLOYER_FIXTURE);
    const docs = await documentsOf(h, EMPLOYER_FIXTURE, KEYS.recruiter);
    const photo = docs.find((d) => d.kind === 'photo')!;
    expectFile(await download(h, EMPLOYER_FIXTURE, photo.id, KEYS.recruiter), 'photo.jpg');
  });

  it("a partner lists and downloads documents of its own onboardings only, never the employer's", async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    submitted(ws, EMPLOYER_FIXTURE);
    submitted(ws, PARTNER_FIXTURE);
    const partner = h.asPartnerFor(KEYS.hrsoft, 'org_acme');
    const list = await partner.get(`/v1/onboardings/${PARTNER_FIXTURE}/documents`);
    expect(list.status).toBe(200);
    const photo = (list.body.data as Doc[]).find((d) => d.kind === 'photo')!;
    const res = await partner.get(`/v1/onboardings/${PARTNER_FIXTURE}/documents/${photo.id}`).buffer(true).parse(bytes);
    expectFile(res, 'photo.jpg');
    expect(ws.auditLog.at(-1)).toMatchObject({ key: KEYS.hrsoft, user_id: 'usr_hrsoft_ivy', organization_id: 'org_acme', onboarding_id: PARTNER_FIXTURE });

    const employerPhoto = (await documentsOf(h, EMPLOYER_FIXTURE)).find((d) => d.kind === 'photo')!;
    for (const path of [`/v1/onboardings/${EMPLOYER_FIXTURE}/documents`, `/v1/onboardings/${EMPLOYER_FIXTURE}/documents/${employerPhoto.id}`]) {
      const hidden = await partner.get(path);
      expect(hidden.status, path).toBe(404);
      expect(envelope(hidden).code).toBe('resource_not_found');
    }
    // The employer sees the partner's onboarding too.
    expect((await documentsOf(h, PARTNER_FIXTURE)).length).toBe(3);
    expect(ws.auditLog).toHaveLength(1);
  });

  it('a partner needs the employer to grant documents:read (403 scope_not_granted)', async () => {
    const h = harness();
    const res = await h.asPartnerFor(KEYS.hrsoft, 'org_bakker').get(`/v1/onboardings/${PARTNER_FIXTURE}/documents`);
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('scope_not_granted');
  });
});
