
/**
 * The hosted pages in the OpenAPI document: the same routes as HOSTED_PAGE_ROUTES, answering
 * text/html (the contract: application/pdf). test/http/openapi.test.ts holds them to the app.
 */
const htmlOf = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string', contentMediaType: 'text/html' } } } });
const responses = (pairs: [string, string][]) => Object.fromEntries(pairs.map(([status, description]) => [status, htmlOf(description)]));
const token = { name: 'token', in: 'path', required: true, schema: { type: 'string' }, description: 'the token of hosted_url' };
const seeOther = (description: string) => ({ description, headers: { Location: { schema: { type: 'string' }, description: 'where the browser goes next' } } });
const GONE: [string, string][] = [
  ['404', 'Unknown link'],
  ['410', 'The link expired, was replaced or revoked, or the onboarding is cancelled or finished'],
];
const form = (properties: Record<string, unknown>, required: string[], multipart = false) => ({
  required: true,
  content: {
    [multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded']: { schema: { type: 'object', properties, required } },
  },
});

function formPost(operationId: string, summary: string, description: string, success: string, more: [string, string][], body?: ReturnType<typeof form>) {
  return {
    post: {
      operationId, summary, description, tags: ['Pages'], security: [{}], parameters: [token],
      ...(body ? { requestBody: body } : {}),
      responses: { '303': seeOther(success), ...responses([...more, ...GONE]) },
    },
  };
}

const TEXT = { type: 'string' };

export const HOSTED_PAGE_OPERATIONS = {
  '/hosted/{token}': {
    get: {
      operationId: 'openHostedPage',
      summary: 'The employee\'s hosted page behind hosted_url',
      description:
        'HTML. Without a page session: asks for the one-time code, and the first opening mails it (outbox kind one_time_code, no event). ' +
        'With the session cookie a correct code set: the page for the onboarding\'s status (the form, the review notice, the contract to sign, the thank-you). ' +
        'Forms post and redirect (303), so no script is needed. 404 for an unknown link, 410 when it cannot be used any more.',
      tags: ['Pages'],
      security: [{}],
      parameters: [token],
      responses: responses([['200', 'The code page or the page for the onboarding\'s status'], ...GONE]),
    },
  },
  '/hosted/{token}/code': formPost(
    'confirmHostedCode', 'Confirm the one-time code: activates the link (onboarding.started) and starts the page session',
    'A wrong code is 422 with the attempts left; the fifth makes the code void (422) until a new one is sent.',
    'The code was right: the session cookie is set, on to the link\'s page',
    [['422', 'Wrong, missing or void code'], ['400', 'The form could not be read'], ['415', 'Not a web form']],
    form({ code: TEXT }, ['code']),
  ),
  '/hosted/{token}/code/new': formPost(
    'sendHostedCode', 'Mail a new one-time code (the previous one stops working)', 'The mail goes to the outbox (kind one_time_code).',
    'Back to the code page', [],
  ),
  '/hosted/{token}/details': formPost(
    'submitHostedDetails', 'Send the employee\'s data: address, date of birth, IBAN, BSN and the identity document',
    'Every field is checked (IBAN mod-97, BSN 11-check, the document a JPEG, PNG or PDF of at most 4 MB); a mistake answers the form again (422) with a message at each field and stores nothing. ' +
      'Success submits as the API\'s life cycle does (onboarding.employee_submitted, ...).',
    'Submitted: to the return_url when the onboarding has one, else to the thank-you page',
    [['403', 'No page session: confirm the code first'], ['409', 'Refused by the life cycle (sent already)'], ['413', 'The form is too large'], ['422', 'A field is wrong'], ['400', 'The form could not be read'], ['415', 'Not a web form']],
    form({
      street: TEXT, house_number: TEXT, postcode: TEXT, city: TEXT, birth_date: { type: 'string', format: 'date' }, iban: TEXT, bsn: TEXT,
      identity_document: { type: 'string', contentMediaType: 'application/octet-stream', description: 'JPEG, PNG or PDF; may be left out on a returned form that keeps the earlier one' },
    }, ['street', 'house_number', 'postcode', 'city', 'birth_date', 'iban', 'bsn'], true),
  ),
  '/hosted/{token}/contract.pdf': {
    get: {
      operationId: 'hostedContract', summary: 'The contract to sign, for the employee with a page session', tags: ['Pages'], security: [{}], parameters: [token],
      responses: {
        '200': { description: 'The contract', content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } },
        ...responses([['403', 'No page session'], ['404', 'Unknown link, or no contract yet'], ['410', 'The link cannot be used any more']]),
        ...responses([['405', 'Another method than GET or HEAD (an HTML page, with Allow)']]),
      },
    },
  },
  '/hosted/{token}/sign': formPost(
    'signHostedContract', 'The employee signs the contract (contract.signed_by_employee)', 'Through the API\'s life cycle: refused (409) unless the contract awaits the employee\'s signature.',
    'Signed: to the return_url when the onboarding has one, else to the thank-you page',
    [['403', 'No page session'], ['409', 'Refused by the life cycle']],
  ),
};
