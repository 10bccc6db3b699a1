import { Type } from '../core/schema.js';
import { Literals } from '../resources/common.schemas.js';
import { EVENT_TYPES } from '../resources/events/events.model.js';
import { TRANSITIONS } from '../resources/onboardings/onboardings.machine.js';
import { ONBOARDING_STATUSES } from '../resources/onboardings/onboardings.model.js';
import { CATALOG_SECTIONS } from './catalog.js';

const Status = Literals(ONBOARDING_STATUSES);
const Event = Literals(EVENT_TYPES);

const CatalogRequestSchema = Type.Object(
  {
    method: Literals(['POST', 'PATCH']),
    path: Type.String({ description: '{id}: the onboarding the first request of the example created' }),
    body: Type.Optional(Type.Object({}, { additionalProperties: true })),
    auth: Type.Optional(Type.Unsafe<'test_key'>({ const: 'test_key', type: 'string', description: 'a /v1 request: send a test key of org_acme' })),
  },
  { title: 'CatalogRequest' },
);

const CatalogEntrySchema = Type.Object(
  {
    section: Literals(CATALOG_SECTIONS),
    name: Type.String({ description: 'unique within its section' }),
    input: Type.String({ description: 'what to send: the address, the value, the call' }),
    outcome: Type.String(),
    needs: Type.Optional(Type.Array(Status, { description: 'the statuses the action or transition needs' })),
    client: Type.Optional(Type.String({ description: 'control actions: the client method, also the MCP onboardings tool\'s action' })),
    trigger: Type.Optional(Literals(Object.keys(TRANSITIONS))),
    refusal: Type.Optional(Type.String({ description: 'the 409 code in any other non-terminal status' })),
    expect: Type.Object(
      {
        status: Type.Optional(Status),
        events: Type.Optional(Type.Array(Event, { description: "fired by the example's last request: exactly these for actions and transitions (older names added), else among others" })),
        error: Type.Optional(Type.Object({ status: Type.Integer(), code: Type.String() })),
        payroll_error_code: Type.Optional(Type.String()),
      },
      { description: 'what the example gives' },
    ),
    example: Type.Array(CatalogRequestSchema, { description: 'requests against a fresh default workspace, in order' }),
  },
  { title: 'CatalogEntry' },
);

export const CatalogSchema = Type.Object(
  {
    object: Type.Literal('catalog'),
    sections: Type.Array(Literals(CATALOG_SECTIONS)),
    older_names: Type.Object({}, { additionalProperties: Event, description: 'older event names, each sent right after its current name' }),
    entries: Type.Array(CatalogEntrySchema),
  },
  { title: 'SandboxCatalog' },
);
