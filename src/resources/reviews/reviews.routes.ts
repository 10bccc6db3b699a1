import { ErrorSchema, IdParam } from '../common.schemas.js';
import { defineRoute, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import { ReviewSessionBody, ReviewSessionSchema } from './reviews.schemas.js';
import { createReviewSession } from './reviews.service.js';
import { renderReviewSession } from './reviews.view.js';

const errors = { description: 'Error', schema: ErrorSchema };

export const reviewRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'POST', path: '/v1/onboardings/:id/review-sessions', tag: 'Reviews', scope: 'reviews:embed',
    operationId: 'createReviewSession',
    summary: 'A link for the embedded review: valid 15 minutes, opens once; request it when the review is shown',
    params: IdParam, body: ReviewSessionBody,
    responses: { 201: { description: 'The review session', schema: ReviewSessionSchema }, 403: errors, 404: errors, 409: errors, 422: errors },
    handle: (ctx) => {
      const session = createReviewSession(ctx.workspace, ctx.principal, ctx.params.id!, ctx.body);
      return ok(renderReviewSession(session, ctx.info.baseUrl), 201);
    },
  }),
];
