import type { ControlHost } from './control.host.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { testValuesDocument } from '../resources/onboardings/onboardings.test-values.js';
import { TestValuesSchema } from './test-values.schemas.js';

export const testValuesRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag: 'Catalog', method: 'GET', path: '/_emulator/test-values',
    operationId: 'getTestValues', summary: "The employee form's test values: valid and refused values per field, with the form's messages, and documents",
    description: 'The same for every workspace; docs/pages.md "Test values and shortcuts" shows it. employee/submit takes these fields and documents.',
    responses: { 200: { description: 'The test values', schema: TestValuesSchema } },
    client: { name: 'testValues' },
    handle: () => ok(testValuesDocument()),
  }),
] satisfies ControlRoute<ControlHost>[];
