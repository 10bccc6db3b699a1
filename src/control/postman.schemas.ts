import { Type } from '../core/schema.js';

/** A Postman collection, format v2.1 (schema.getpostman.com): the parts this emulator writes. */
export const PostmanCollectionSchema = Type.Object(
  {
    info: Type.Object({ name: Type.String(), description: Type.String(), schema: Type.String({ format: 'uri' }) }),
    item: Type.Array(Type.Object({ name: Type.String(), item: Type.Array(Type.Object({}, { description: 'one request: its method, URL, bearer key, body and test script' })) }), {
      description: 'one folder per tag, in the order the run first reaches it',
    }),
    variable: Type.Array(Type.Object({ key: Type.String(), value: Type.String() }), { description: 'baseUrl, the keys, webhookUrl and the ids the run keeps' }),
  },
  { title: 'PostmanCollection', description: 'A Postman collection (v2.1) of the /v1 API, made from this OpenAPI document; runs green with newman against a fresh workspace' },
);
