import { describe, expect, it } from 'vitest';
import { createBody, harness, KEYS } from '../support/harness.js';
import { pathOf, ws, outbox, eventTypes, created, lastCode, signedIn, details } from '../support/hosted-flow.js';

/** The employee opening hosted_url: the one-time code mailed on opening, void after 5 wrong attempts, and the session cookie. */

describe('opening the link: the one-time code', () => {
  it('shows the employer, mails the link\'s code once (kind one_time_code, no event) and asks for it', async () => {
    const h = harness();
    const o = await created(h);
    const before = eventTypes(h, o.id);
    const page = await h.http().get(o.path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Acme Retail B.V.');
    expect(page.text).toContain('l***@example.test');
    expect(page.text).toContain('<label for="code">');
    const mails = outbox(h, o.id);
    expect(mails.map((m) => m.kind)).toEqual(['one_time_code']);
    expect(mails[0]!.code).toBe(ws(h).store.onboardings.get(o.id)!.hosted_link!.code);
    expect(pathOf(mails[0]!.link!)).toBe(o.path);
    expect(eventTypes(h, o.id)).toEqual(before);
    // Opening again (and HEAD) sends nothing new.
    await h.http().get(o.path);
    await h.http().head(o.path);
    expect(outbox(h, o.id)).toHaveLength(1);
    // The control API lists the mail with its kind.
    const listed = await h.http().get(`/_emulator/outbox?onboarding_id=${o.id}`);
    expect(listed.body.data[0].kind).toBe('one_time_code');
  });

  it('sends a strict Content-Security-Policy without script or foreign form targets, framed only where allowed_origins admit', async () => {
    const h = harness();
    const o = await created(h);
    const page = await h.http().get(o.path);
    const csp = page.headers['content-security-policy']!;
    expect(csp).toContain("default-src 'none'");
    // Acme's allowed_origins; the onboarding was made with Acme's own key, so no partner's.
    expect(csp).toMatch(/; frame-ancestors 'self' app\.acme\.test:\* \*\.acme\.test:\*$/);
    expect(csp).toContain("form-action 'self'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('script-src');
    expect(page.text).not.toContain('<script');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });

  it('the code of an invitation in hand works: the opening mails the same code', async () => {
    const h = harness();
    const o = await created(h, { options: { send_invitation: true } });
    await h.http().get(o.path);
    const [invitation, code] = outbox(h, o.id);
    expect([invitation!.kind, code!.kind]).toEqual(['invitation', 'one_time_code']);
    expect(code!.code).toBe(invitation!.code);
    expect((await h.http().post(`${o.path}/code`).type('form').send({ code: invitation!.code! })).status).toBe(303);
  });

  it('a correct code activates the link through the life cycle and sets an HttpOnly SameSite=Lax cookie for this link', async () => {
    const h = harness();
    const s = await signedIn(h);
    expect(s.confirm.headers.location).toBe(s.path);
    const setCookie = s.confirm.headers['set-cookie']![0]!;
    expect(setCookie).toMatch(/^hosted_session=[A-Za-z0-9]{32}; Path=\/hosted\/[A-Za-z0-9]{32}; HttpOnly; SameSite=Lax$/);
    expect(setCookie).toContain(`Path=${s.path}`);
    const api = await h.as(KEYS.owner).get(`/v1/onboardings/${s.id}`);
    expect(api.body.hosted_link).toMatchObject({ status: 'activated', activated: true });
    expect(eventTypes(h, s.id)).toContain('onboarding.started');
    // The form follows without a code.
    const form = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(form.text).toContain('Hello Lotte, welcome to Acme Retail B.V.');
    // The code is used up: a second browser gets a fresh one by mail.
    const other = await h.http().get(s.path);
    expect(other.text).toContain('<label for="code">');
    const codes = outbox(h, s.id).map((m) => m.code);
    expect(codes).toHaveLength(2);
    expect(codes[1]).not.toBe(codes[0]);
  });

  it('a wrong code is refused with 422 and the attempts left; the fifth makes the code void until a new one is sent', async () => {
    // Seeded, so the new code is known to differ from the old one and the refusal of the old one is always checked.
    const h = harness({ seed: 'hosted-code-renewal' });
    const o = await created(h);
    await h.http().get(o.path);
    const good = lastCode(h, o.id);
    const wrong = good === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      const res = await h.http().post(`${o.path}/code`).type('form').send({ code: wrong });
      expect(res.status).toBe(422);
      expect(res.text).toContain('That code is not right.');
      expect(res.text).toContain(`${5 - i} attempt${5 - i === 1 ? ' is' : 's are'} left`);
      expect(res.text).toContain('aria-invalid="true"');
    }
    const fifth = await h.http().post(`${o.path}/code`).type('form').send({ code: wrong });
    expect(fifth.status).toBe(422);
    expect(fifth.text).toContain('wrong 5 times and no longer works');
    expect(fifth.text).not.toContain('<label for="code">');
    expect(fifth.text).toContain('Send a new code');
    // Even the right code no longer works, on the page and through the control API.
    const right = await h.http().post(`${o.path}/code`).type('form').send({ code: good });
    expect(right.status).toBe(422);
    expect(right.headers['set-cookie']).toBeUndefined();
    const control = await h.http().post(`/_emulator/onboardings/${o.id}/employee/open`).send({ code: good });
    expect(control.status).toBe(422);
    expect(control.body.error.code).toBe('one_time_code_void');
    expect((await h.http().get(o.path)).text).toContain('no longer works');
    expect(eventTypes(h, o.id)).not.toContain('onboarding.started');
    // A new code: a fresh one by mail, the old one stays refused, the new one opens.
    const sent = await h.http().post(`${o.path}/code/new`);
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe(`${o.path}?sent=1`);
    expect((await h.http().get(sent.headers.location!)).text).toContain('A new code is on its way');
    const fresh = lastCode(h, o.id);
    expect(outbox(h, o.id)).toHaveLength(2);
    expect(fresh).toMatch(/^\d{6}$/);
    expect(fresh).not.toBe(good);
    const old = await h.http().post(`${o.path}/code`).type('form').send({ code: good });
    expect(old.status).toBe(422);
    expect(old.text).toContain('That code is not right.');
    expect(old.headers['set-cookie']).toBeUndefined();
    expect((await h.http().post(`${o.path}/code`).type('form').send({ code: fresh })).status).toBe(303);
  });

  it('an empty code is asked for again without counting an attempt', async () => {
    const h = harness();
    const o = await created(h);
    await h.http().get(o.path);
    const res = await h.http().post(`${o.path}/code`).type('form').send({ code: ' ' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Enter the 6-digit code');
    expect(ws(h).store.onboardings.get(o.id)!.hosted_link!.code_attempts ?? 0).toBe(0);
  });

  it('a session cookie opens only its own link', async () => {
    const h = harness();
    const a = await signedIn(h);
    const b = await created(h, { reference: 'other' });
    const page = await h.http().get(b.path).set('Cookie', a.cookie);
    expect(page.text).toContain('<label for="code">');
    const post = await details(h, { path: b.path, cookie: a.cookie });
    expect(post.status).toBe(403);
    expect(ws(h).store.onboardings.get(b.id)!.status).toBe('pending_employee');
  });
});

describe('the hosted pages inside a partner\'s frame', () => {
  it('a partner\'s onboarding may be framed by the partner\'s allowed_origins as well as the employer\'s', async () => {
    const h = harness();
    const made = await h.as(KEYS.hrsoft).post('/v1/onboardings', createBody({ reference: 'framed-1' })).set('Service-Organization', 'org_acme');
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const page = await h.http().get(pathOf(made.body.hosted_url as string));
    expect(page.headers['content-security-policy']).toMatch(/; frame-ancestors 'self' app\.acme\.test:\* \*\.acme\.test:\* app\.hrsoft\.test:\*$/);
  });

  it('a code confirmed in a frame sets a partitioned cookie on loopback and on https, SameSite=Lax where Secure cannot be kept', async () => {
    const confirmIn = async (h: ReturnType<typeof harness>, host?: string) => {
      const o = await created(h);
      await h.http().get(o.path);
      let req = h.http().post(`${o.path}/code`).set('Sec-Fetch-Dest', 'iframe');
      if (host) req = req.set('Host', host);
      const res = await req.type('form').send({ code: lastCode(h, o.id) });
      expect(res.status, res.text).toBe(303);
      return res.headers['set-cookie']![0]!;
    };
    const local = harness();
    expect(await confirmIn(local, '127.0.0.1:4010')).toMatch(/; HttpOnly; SameSite=None; Secure; Partitioned$/);
    expect(await confirmIn(local, 'localhost:4010')).toMatch(/; HttpOnly; SameSite=None; Secure; Partitioned$/);
    expect(await confirmIn(harness({}, { publicUrl: 'https://onboarding.example.test/' }))).toMatch(/; HttpOnly; SameSite=None; Secure; Partitioned$/);
    // Plain http on a name a browser does not count as secure (a container's, say): a Secure cookie would be dropped.
    expect(await confirmIn(local, 'emulator:4010')).toMatch(/; HttpOnly; SameSite=Lax$/);
  });
});
