import type { ControlHost } from './control.host.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { sandboxCatalog } from './catalog.js';
import { CatalogSchema } from './catalog.schemas.js';

export const catalogRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag: 'Catalog', method: 'GET', path: '/_emulator/catalog',
    operationId: 'getCatalog', summary: 'The sandbox catalogue: every magic input and control action, its outcome and an example',
    description: 'Magic e-mail addresses, test identity numbers, values a check refuses, payroll failures, control actions and the other life-cycle transitions; the same for every workspace (docs/catalog.md shows it).',
    responses: { 200: { description: 'The catalogue', schema: CatalogSchema } },
    client: { name: 'catalog' },
    handle: () => ok(sandboxCatalog()),
  }),
] satisfies ControlRoute<ControlHost>[];
