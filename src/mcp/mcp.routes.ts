import { BODY_DEPTH_LIMIT } from '../core/documents.js';
import { fail, type ApiError } from '../core/errors.js';
import { BODY_LIMIT } from '../core/request-body.js';
import { Type } from '../core/schema.js';
import { localMethods } from '../control/control.local.js';
import { SNAPSHOT_BODY_LIMIT } from '../control/control.routes.js';
import type { ControlHost } from '../control/control.host.js';
import type { ControlRoute } from '../operations/control-row.js';
import { ok } from '../operations/reply.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { isLiveKey } from './mcp.keys.js';
import { peekCall } from './mcp.peek.js';
import { toolOfMethod } from './mcp.tools.js';

/**
 * MCP over streamable HTTP (docs/mcp.md): POST /_emulator/mcp for the default workspace (or the
 * one a test key names), /_emulator/workspaces/{id}/mcp for another. A control row like the
 * others: admitted as every one is (the host and origin guard before it, so a page of another
 * origin cannot post here; the workspace by path, key or default; no live key), its body held
 * to the snapshot's limits and checked, the SDK's server answering the message, and the answer
 * written by the adapter's one writer (with --state-file, once what the call changed is on the
 * disk). GET (an event stream) is not served: the answers are JSON.
 */
const McpMessage = Type.Unsafe<unknown>({
  type: 'object',
  title: 'McpMessage',
  description: 'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, resources/read, ...); the SDK clients send Accept: application/json, text/event-stream, and are answered in JSON',
  required: ['jsonrpc'],
  properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } },
});

/** The headers an MCP client sends besides the body, handed to the SDK as they came. */
const MCP_HEADERS = {
  'MCP-Protocol-Version': 'The protocol version the client speaks (after initialize, or on every request of the stateless revision 2026-07-28; left out: 2025-03-26); an unsupported one is refused with 400',
  'Mcp-Method': 'The JSON-RPC method of the body (stateless revision); one that differs from the body is refused',
  'Mcp-Name': 'The tool or resource the body names (stateless revision); one that differs from the body is refused',
};
const RESTORE = { method: 'tools/call', tool: toolOfMethod('restore'), action: 'restore' };

/** Over 1 MB, a message must be the restore of a snapshot: parsing and checking 30 MB of anything else took seconds. */
function admitMcpBody(bytes: Uint8Array): ApiError | undefined {
  if (bytes.length <= BODY_LIMIT) return undefined;
  const call = peekCall(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  if (call.method === RESTORE.method && call.tool === RESTORE.tool && call.action === RESTORE.action) return undefined;
  return fail('body_too_large', `The body is larger than 1 MB; only a restore (tools/call of ${RESTORE.tool}, action ${RESTORE.action}) takes more, up to ${SNAPSHOT_BODY_LIMIT / (1024 * 1024)} MB.`);
}

export const mcpRoute: ControlRoute<ControlHost> = {
  kind: 'control', perWorkspace: true, tag: 'MCP', method: 'POST', path: '/_emulator/mcp', operationId: 'mcp',
  summary: 'The Model Context Protocol for coding agents over streamable HTTP: tools made from the control actions, on this workspace, with test keys only',
  description: 'Stateless: every request stands alone and is answered in JSON (no event stream, no session id). A live key is refused (403 sandbox_test_keys_only). See docs/mcp.md.',
  body: McpMessage,
  // A restore through MCP carries a snapshot: the limits of PUT /_emulator/snapshot, and a few
  // levels for the message around it; any other message 1 MB, known from its bytes.
  bodyLimit: SNAPSHOT_BODY_LIMIT,
  bodyDepth: BODY_DEPTH_LIMIT + 32,
  admitBody: admitMcpBody,
  headers: Object.fromEntries(Object.entries(MCP_HEADERS).map(([name, description]) => [name, { description, optional: true }])),
  admitKey: (key) => {
    if (isLiveKey(key)) throw fail('sandbox_test_keys_only', 'The MCP endpoint works with test keys only (hrs_test_...).');
  },
  // The tools' answers are the control rows' own, masked by each row (and live keys by mcp.keys.ts); masked again, the key table would lose its test keys.
  showsSecrets: true,
  responses: {
    200: { description: 'The JSON-RPC answer', schema: McpMessage },
    202: { description: 'A notification or a response was taken; nothing to answer' },
    400: { description: 'An MCP-Protocol-Version the server does not speak (the error envelope), or a message the SDK refuses before any handler (a JSON-RPC error: a stateless request whose headers and body disagree)' },
    403: { description: 'Error', schema: ErrorSchema },
  },
  handle: async ({ emulator, workspace, body, headers, info }) => {
    // Loaded here, on the first MCP request: the SDK stays out of every other start.
    const { answerMessage } = await import('./mcp.answer.js');
    const session = {
      workspaceId: workspace.id,
      methods: localMethods(emulator, workspace.id, () => info),
      openapi: () => Promise.resolve(info.apiDocument?.(info.baseUrl)),
      requestId: () => info.requestId,
    };
    const given = Object.fromEntries(Object.keys(MCP_HEADERS).map((name) => [name.toLowerCase(), headers[name]]));
    const answer = await answerMessage(session, body, given);
    return answer.status === 200 ? ok(answer.body) : answer;
  },
};
