import type { Request, Response, Router } from 'express';
import { fail, type ApiError } from '../core/errors.js';
import { Type } from '../core/schema.js';
import { servedPaths, type ControlRoute } from '../operations/control-row.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { BODY_DEPTH_LIMIT } from '../core/documents.js';
import { localMethods } from '../control/control.local.js';
import { SNAPSHOT_BODY_LIMIT } from '../control/control.routes.js';
import type { Emulator } from '../emulator.js';
import { isLiveKey } from '../mcp/mcp.keys.js';
import { peekCall } from '../mcp/mcp.peek.js';
import { toolOfMethod } from '../mcp/mcp.tools.js';
import { readJsonBody } from './body.js';
import { BODY_LIMIT } from '../core/request-body.js';
import { bearer, hangupSignal, infoOf, selectWorkspace, type MountOptions } from './mount.js';

/**
 * MCP over streamable HTTP (docs/mcp.md): POST /_emulator/mcp for the default workspace (or the
 * one a test key names), /_emulator/workspaces/{id}/mcp for another. Admitted as every control
 * row is: the host and origin guard before it (a page of another origin cannot post here), the
 * workspace by path, key or default; and no live key. GET (an event stream) is not served: the
 * answers are JSON.
 */
const McpMessage = Type.Unsafe<unknown>({
  type: 'object',
  title: 'McpMessage',
  description: 'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, resources/read, ...); send Accept: application/json, text/event-stream',
  required: ['jsonrpc'],
  properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } },
});

/**
 * The endpoint as the OpenAPI document shows it, in the shape of a control row (served as is and
 * under each workspace); the adapter below serves it, not the control runner.
 */
export const mcpRoute: ControlRoute<Emulator> = {
  kind: 'control', perWorkspace: true, tag: 'MCP', method: 'POST', path: '/_emulator/mcp', operationId: 'mcp',
  summary: 'The Model Context Protocol for coding agents over streamable HTTP: tools made from the control actions, on this workspace, with test keys only',
  description: 'Stateless: every request stands alone and is answered in JSON (no event stream, no session id). A live key is refused (403 sandbox_test_keys_only). See docs/mcp.md.',
  body: McpMessage,
  bodyLimit: SNAPSHOT_BODY_LIMIT,
  responses: { 200: { description: 'The JSON-RPC answer', schema: McpMessage }, 403: { description: 'Error', schema: ErrorSchema } },
  handle: () => {
    throw fail('internal_error', 'The MCP endpoint is served by its own adapter.');
  },
};

export const MCP_PATHS = servedPaths(mcpRoute);

const RESTORE = { method: 'tools/call', tool: toolOfMethod('restore'), action: 'restore' };

/** Over 1 MB, a message must be the restore of a snapshot: parsing and checking 30 MB of anything else took seconds. */
function admitMcpBody(raw: Buffer): ApiError | undefined {
  if (raw.length <= BODY_LIMIT) return undefined;
  const call = peekCall(raw);
  if (call.method === RESTORE.method && call.tool === RESTORE.tool && call.action === RESTORE.action) return undefined;
  return fail('body_too_large', `The body is larger than 1 MB; only a restore (tools/call of ${RESTORE.tool}, action ${RESTORE.action}) takes more, up to ${SNAPSHOT_BODY_LIMIT / (1024 * 1024)} MB.`);
}

export function mountMcp(router: Router, emulator: Emulator, options: MountOptions & { openapi(baseUrl: string): unknown; commit?: (() => Promise<void>) | undefined }): void {
  for (const path of MCP_PATHS) {
    router.post(path, async (req: Request, res: Response) => {
      const token = bearer(req);
      if (token !== undefined && isLiveKey(token)) throw fail('sandbox_test_keys_only', 'The MCP endpoint works with test keys only (hrs_test_...).');
      const workspace = selectWorkspace(emulator, req);
      // A restore through MCP carries a snapshot: the same limits as PUT /_emulator/snapshot;
      // any other message, 1 MB, known from its bytes before they are parsed.
      const body = await readJsonBody(req, res, ['json'], SNAPSHOT_BODY_LIMIT, BODY_DEPTH_LIMIT + 32, admitMcpBody);
      const info = { ...infoOf(req, options), signal: hangupSignal(res), apiDocument: options.openapi };
      // Loaded here, on the first MCP request: the SDK stays out of every other start.
      const { serveMcpRequest } = await import('../mcp/mcp.http.js');
      await serveMcpRequest(
        {
          workspaceId: workspace.id,
          methods: localMethods(emulator, workspace.id, () => info),
          commit: options.commit,
          openapi: () => Promise.resolve(options.openapi(info.baseUrl)),
          requestId: () => info.requestId,
        },
        req,
        res,
        body,
      );
    });
  }
}
