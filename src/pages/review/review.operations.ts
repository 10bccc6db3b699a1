import { RETURN_REASON_MAX } from '../../resources/onboardings/onboardings.model.js';
import { ROLES } from '../../resources/organizations/organizations.model.js';

/**
 * The review pages in the OpenAPI document: the same routes as REVIEW_PAGE_ROUTES, answering
 * text/html (or the static script and style). test/http/openapi.test.ts holds them to the app.
 */
const htmlOf = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string', contentMediaType: 'text/html' } } } });
const responses = (pairs: [string, string][]) => Object.fromEntries(pairs.map(([status, description]) => [status, htmlOf(description)]));
const token = { name: 'token', in: 'path', required: true, schema: { type: 'string' } };
const formBody = (properties: Record<string, unknown>, required: string[]) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: { type: 'object', properties: { action_token: { type: 'string', description: 'the hidden field of the opened page' }, ...properties }, required: ['action_token', ...required] },
    },
  },
});
const ROLE = { type: 'string', enum: [...ROLES] };

function formOperation(operationId: string, summary: string, properties: Record<string, unknown>, required: string[]) {
  return {
    post: {
      operationId, summary, tags: ['Pages'], security: [{}], parameters: [token],
      description: 'HTML form post from the opened review page. A refusal (four-eyes, role, state) answers the page again with the message, in the status of the API\'s error code.',
      requestBody: formBody(properties, required),
      responses: responses([
        ['200', 'The review page after the action'], ['403', 'Not this page\'s action token, not signed in, or a role not held'],
        ['404', 'Unknown link'], ['409', 'Refused by the life cycle (four-eyes, state)'], ['410', 'The page timed out'], ['422', 'A field is missing or wrong'],
        ['400', 'The form could not be read'], ['413', 'The form is larger than 16 kB or has too many fields'], ['415', 'Not a web form'],
      ]),
    },
  };
}

const script = (operationId: string, summary: string, type: string) => ({
  get: {
    operationId, summary, tags: ['Pages'], security: [{}],
    responses: {
      '200': { description: summary, content: { [type]: { schema: { type: 'string', contentMediaType: type } } } },
      ...responses([['405', 'Another method than GET or HEAD (an HTML page, with Allow)']]),
    },
  },
});

export const REVIEW_PAGE_OPERATIONS = {
  '/review/{token}': {
    get: {
      operationId: 'openReviewPage',
      summary: 'The embedded review page behind review_url: opens once, within 15 minutes',
      description:
        'HTML. 200 on the first opening: the sign-in (first review from this product) or, for a linked user, the review itself; 410 once used or expired; 404 for an unknown link. ' +
        "Content-Security-Policy frame-ancestors admits the employer's allowed_origins (and the partner's, for a partner's session). " +
        'embed.js adds `origin` (the framing page\'s origin): when allowed_origins admits it, the page posts its outcomes to it.',
      tags: ['Pages'],
      security: [{}],
      parameters: [token, { name: 'origin', in: 'query', required: false, schema: { type: 'string' }, description: 'the framing page\'s origin (set by embed.js)' }],
      responses: responses([['200', 'The sign-in or the review page'], ['404', 'Unknown link'], ['410', 'Link already used, expired, or the review is over']]),
    },
  },
  '/review/{token}/sign-in': formOperation('signInReviewPage', 'The emulated sign-in: links the client\'s user to the account for 30 days', {
    user_id: { type: 'string' }, email: { type: 'string', description: 'instead of user_id' },
  }, []),
  '/review/{token}/identity-verification': formOperation('verifyIdentityReviewPage', 'Confirm the identity check (role manager)', {}, []),
  '/review/{token}/approvals': formOperation('approveReviewPage', 'Approve in a role the reviewer holds; four-eyes as for the API', {
    role: ROLE, data_version: { type: 'string', pattern: '^[0-9]+$' },
  }, ['role', 'data_version']),
  '/review/{token}/return': formOperation('returnReviewPage', 'Return the data for correction', {
    to: { type: 'string', enum: ['employee', 'manager'] },
    reason: { type: 'string', maxLength: RETURN_REASON_MAX, description: 'optional; shown to the employee on the hosted form' },
  }, ['to']),
  '/embed.js': script('embedScript', 'embed.js: OnboardingReview.mount(target, reviewUrl, {onMessage}) mounts the review in an iframe', 'text/javascript'),
  '/embed/review-page.js': script('reviewPageScript', "The review page's own script: posts outcomes to the admitted framing origin", 'text/javascript'),
  '/embed/review-page.css': script('reviewPageStyle', "The review page's style sheet", 'text/css'),
};
