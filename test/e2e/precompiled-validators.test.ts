import { describe, expect, it } from 'vitest';
import { compile as compileFromSource } from '../../src/core/validation.js';
import { CreateOnboardingBody, ListOnboardingsQuery } from '../../src/resources/onboardings/onboardings.schemas.js';
import { createBody } from '../support/harness.js';

/**
 * The build precompiles every schema (scripts/build-validators.mjs) and the built emulator
 * uses those validators; tests running from source compile at run time. Both must agree.
 */
const dist = '../../dist/core/validation.js';
const distSchemas = '../../dist/resources/onboardings/onboardings.schemas.js';
const distRoutes = '../../dist/http/routes.js';
const distFixtures = '../../dist/fixtures/fixtures.schemas.js';

describe('precompiled validators in dist/', () => {
  it('cover every body and query schema of the routes and documents', async () => {
    const { precompiledCount, isPrecompiled } = (await import(dist)) as { precompiledCount: () => number; isPrecompiled: (s: unknown, q?: boolean) => boolean };
    type Route = { method: string; path: string; body?: unknown; query?: unknown };
    const { apiRoutes, allControlRoutes } = (await import(distRoutes)) as { apiRoutes: Route[]; allControlRoutes: Route[] };
    const { FixturesSchema } = (await import(distFixtures)) as { FixturesSchema: unknown };
    expect(precompiledCount()).toBeGreaterThanOrEqual(10);
    expect(isPrecompiled(FixturesSchema)).toBe(true);
    for (const route of [...apiRoutes, ...allControlRoutes]) {
      if (route.body) expect(isPrecompiled(route.body), `${route.method} ${route.path} body`).toBe(true);
      if (route.query) expect(isPrecompiled(route.query, true), `${route.method} ${route.path} query`).toBe(true);
    }
  });

  const bodies: [string, unknown][] = [
    ['valid', createBody()],
    ['missing employee', { ...createBody(), employee: undefined }],
    ['too long metadata text', createBody({ metadata: { a: 'x'.repeat(501) } })],
    ['bad metadata key', createBody({ metadata: { 'bad key': 1 } })],
    ['wrong enum', createBody({ employment: { ...createBody().employment, contract_type: 'zero_hours' } })],
    ['unknown field', { ...createBody(), extra: 1 }],
    ['bad email and date', createBody({ employee: { first_name: 'a', last_name: 'b', email: 'nope' } })],
  ];

  it.each(bodies)('give the same verdict and mistakes as run-time compilation: %s', async (_name, body) => {
    const built = (await import(dist)) as { compile: typeof compileFromSource };
    const schemas = (await import(distSchemas)) as { CreateOnboardingBody: typeof CreateOnboardingBody };
    const fromDist = built.compile(schemas.CreateOnboardingBody)(structuredClone(body));
    const fromSource = compileFromSource(CreateOnboardingBody)(structuredClone(body));
    expect(fromDist).toEqual(fromSource);
  });

  it('coerce query strings the same way', async () => {
    const built = (await import(dist)) as { compile: typeof compileFromSource };
    const schemas = (await import(distSchemas)) as { ListOnboardingsQuery: typeof ListOnboardingsQuery };
    for (const query of [{ limit: '5' }, { limit: 'x' }, { status: 'nope' }, { updated_since: '2026-10-01T00:00:00Z' }]) {
      const a = built.compile(schemas.ListOnboardingsQuery, { coerce: true })({ ...query });
      const b = compileFromSource(ListOnboardingsQuery, { coerce: true })({ ...query });
      expect(a).toEqual(b);
    }
  });
});
