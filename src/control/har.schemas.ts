import { Type, type Static } from '../core/schema.js';

/**
 * The HTTP Archive (HAR 1.2) documents the control API exports: the request journal and the
 * webhook attempts. The fields this emulator writes, for OpenAPI and for the type; a field of
 * our own starts with `_`, as HAR asks of extensions.
 */

const NameValue = Type.Object({ name: Type.String(), value: Type.String() });

const HarRequest = Type.Object({
  method: Type.String(),
  url: Type.String(),
  httpVersion: Type.String(),
  cookies: Type.Array(NameValue),
  headers: Type.Array(NameValue),
  queryString: Type.Array(NameValue),
  postData: Type.Optional(Type.Object({ mimeType: Type.String(), text: Type.String(), comment: Type.Optional(Type.String()) })),
  headersSize: Type.Integer(),
  bodySize: Type.Integer(),
  comment: Type.Optional(Type.String()),
});

const HarResponse = Type.Object({
  status: Type.Integer({ description: '0 when no answer arrived (see _error)' }),
  statusText: Type.String(),
  httpVersion: Type.String(),
  cookies: Type.Array(NameValue),
  headers: Type.Array(NameValue),
  content: Type.Object({ size: Type.Integer(), mimeType: Type.String(), text: Type.Optional(Type.String()), comment: Type.Optional(Type.String()) }),
  redirectURL: Type.String(),
  headersSize: Type.Integer(),
  bodySize: Type.Integer(),
  comment: Type.Optional(Type.String()),
  _error: Type.Optional(Type.String({ description: 'why no answer came back (a network failure, a timeout, a dropped answer) or why it refused' })),
});

const HarEntry = Type.Object({
  startedDateTime: Type.String({ format: 'date-time', description: 'on the workspace clock' }),
  time: Type.Number({ description: 'milliseconds, wall clock; 0 when not measured' }),
  request: HarRequest,
  response: HarResponse,
  cache: Type.Object({}),
  timings: Type.Object({ blocked: Type.Number(), dns: Type.Number(), connect: Type.Number(), send: Type.Number(), wait: Type.Number(), receive: Type.Number() }),
  comment: Type.Optional(Type.String()),
  _id: Type.Optional(Type.String({ description: 'the journal entry (jrn_...) or the delivery (whd_...) it comes from' })),
  _error_code: Type.Optional(Type.String()),
  _onboarding_ids: Type.Optional(Type.Array(Type.String())),
  _event_id: Type.Optional(Type.String()),
  _event_type: Type.Optional(Type.String()),
  _endpoint_id: Type.Optional(Type.String()),
  _attempt: Type.Optional(Type.Integer({ description: 'the attempt\'s number within its delivery, from 1' })),
  _manual: Type.Optional(Type.Boolean()),
  _injected: Type.Optional(Type.Unknown({ description: 'what a delivery fault did to this attempt' })),
});

export const HarSchema = Type.Object(
  {
    log: Type.Object({
      version: Type.Literal('1.2'),
      creator: Type.Object({ name: Type.String(), version: Type.String() }),
      entries: Type.Array(HarEntry),
      comment: Type.Optional(Type.String()),
    }),
  },
  { title: 'Har', description: 'An HTTP Archive (HAR 1.2): opens in the network panel of Chrome and Firefox developer tools' },
);

export type Har = Static<typeof HarSchema>;
export type HarEntry = Static<typeof HarEntry>;
export type HarNameValue = Static<typeof NameValue>;
