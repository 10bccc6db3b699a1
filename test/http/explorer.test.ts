import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectError, harness } from '../support/harness.js';

/**
 * The API explorer at /_emulator/docs over HTTP: the shell, the emulator's own script and style
 * sheet, and Swagger UI's files (copied by the build from swagger-ui-dist, the same bytes), each with its type and
 * the strict policy; off (404 in the envelope) with --no-ui like the inspector.
 */
const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// The installed package, found as a reader of this repository would find it.
const library = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const version = (JSON.parse(readFileSync(join(library, 'package.json'), 'utf8')) as { version: string }).version;

const FILES = [
  ['/_emulator/docs/explorer.js', 'text/javascript'],
  ['/_emulator/docs/explorer.css', 'text/css'],
  ['/_emulator/docs/swagger-ui-bundle.js', 'text/javascript'],
  ['/_emulator/docs/swagger-ui.css', 'text/css'],
] as const;

type Res = { status: number; headers: Record<string, string> };

function expectGuarded(res: Res, type: string) {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
  expect(res.headers['content-security-policy']).toBe(POLICY);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

describe('the API explorer at /_emulator/docs', () => {
  it('serves its shell under a strict policy: scripts and styles from the emulator only, none inline, no eval', async () => {
    const res = await harness().http().get('/_emulator/docs');
    expectGuarded(res, 'text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    // The library by its installed version, the init script as a file, nothing inline or from elsewhere.
    expect(res.text).toContain(`<script src="/_emulator/docs/swagger-ui-bundle.js?v=${version}" defer></script>`);
    expect(res.text).toContain('<script src="/_emulator/docs/explorer.js" defer></script>');
    expect(res.text).toContain(`<link rel="stylesheet" href="/_emulator/docs/swagger-ui.css?v=${version}">`);
    expect(res.text).toContain('<link rel="stylesheet" href="/_emulator/docs/explorer.css">');
    expect(res.text).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|<style|style="|https?:\/\//);
    expect(res.text).toContain('<a href="/_emulator/ui">Inspector</a>');
  });

  it('serves each file it names with its type, the policy and nosniff', async () => {
    const h = harness();
    for (const [path, type] of FILES) expectGuarded(await h.http().get(path), type);
  });

  it("serves Swagger UI's files byte for byte from the installed package, cached for good only at their versioned address", async () => {
    const h = harness();
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const bytes = readFileSync(join(library, name));
      const versioned = await h.http().get(`/_emulator/docs/${name}?v=${version}`).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
      expect(versioned.status).toBe(200);
      expect(Buffer.compare(versioned.body as Buffer, bytes)).toBe(0);
      expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // Without the version (or with another one) the address may serve another copy after an upgrade.
      expect((await h.http().get(`/_emulator/docs/${name}`)).headers['cache-control']).toBe('no-cache');
      expect((await h.http().get(`/_emulator/docs/${name}?v=0.0.1`)).headers['cache-control']).toBe('no-cache');
    }
  });

  it('the init script renders through DOM text only and names no other origin', async () => {
    const js = (await harness().http().get('/_emulator/docs/explorer.js')).text;
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|https?:\/\//);
    expect(js).toContain('textContent');
  });

  it('answers another method than GET with 405 in the envelope', async () => {
    const res = await harness().http().post('/_emulator/docs').send({});
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('with ui: false (--no-ui) the page and its files are 404 in the envelope', async () => {
    const h = harness({}, { ui: false });
    for (const path of ['/_emulator/docs', ...FILES.map(([p]) => p)]) {
      expectError(await h.http().get(path), 404, 'not_found', 'route_not_found');
    }
  });
});
