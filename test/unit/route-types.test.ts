import { describe, expect, it } from 'vitest';
import { Type } from '../../src/core/schema.js';
import { defineRoute, type ApiContext } from '../../src/resources/route.js';
import { ok } from '../../src/operations/reply.js';

/**
 * Route rows are typed from their schemas (`defineRoute`): the checks that matter here are the
 * compiler's (`npm run typecheck`); the test only makes sure the row still runs as written.
 */
const Body = Type.Object({ name: Type.String(), count: Type.Optional(Type.Integer()) });
const Query = Type.Object({ limit: Type.Integer() });

const row = defineRoute({
  kind: 'api', method: 'POST', path: '/v1/things', operationId: 'makeThing', summary: 'A thing', tag: 'Things', scope: 'onboardings:write',
  body: Body, query: Query, responses: { 200: { description: 'The thing' } },
  handle: (ctx) => {
    const name: string = ctx.body.name;
    const count: number | undefined = ctx.body.count;
    const limit: number = ctx.query.limit;
    // @ts-expect-error a field the schema does not declare
    void ctx.body.other;
    // @ts-expect-error the schema says string
    const wrong: number = ctx.body.name;
    void wrong;
    return ok({ name, count, limit });
  },
});

describe('defineRoute', () => {
  it('hands handle the context as given', async () => {
    const ctx = { body: { name: 'a', count: 2 }, query: { limit: 5 } } as unknown as ApiContext;
    expect(await row.handle(ctx)).toEqual({ status: 200, body: { name: 'a', count: 2, limit: 5 } });
  });
});
