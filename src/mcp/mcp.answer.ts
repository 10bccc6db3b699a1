import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { fail } from '../core/errors.js';
import { createMcpServer, mcpSdk, type McpServerSession } from './mcp.server.js';

/**
 * One MCP message received over HTTP, answered statelessly: a server for this message alone
 * (the workspace comes with each request's path, so there is no session to keep), handed the
 * message through the SDK's in-memory transport. What the server answers is returned for the
 * control row to reply with, so the adapter's writer sends it as every answer; a notification
 * or a response has no answer (undefined: 202, as the streamable HTTP transport says). The
 * transport is loaded with the SDK, on first use.
 */
const loadTransport = () => import('@modelcontextprotocol/sdk/inMemory.js');
let transport: ReturnType<typeof loadTransport> | undefined;

export async function answerMessage(session: McpServerSession, body: unknown, protocolVersion: string | undefined): Promise<JSONRPCMessage | undefined> {
  const [{ InMemoryTransport }, { types }] = await Promise.all([(transport ??= loadTransport()), mcpSdk()]);
  const read = types.JSONRPCMessageSchema.safeParse(body);
  if (!read.success) {
    throw fail('parameter_invalid', 'The body is not a JSON-RPC 2.0 message: a request has an id and a method, a notification a method alone, a response an id and a result or an error.');
  }
  const message = read.data;
  // Every message after initialize names the version its client speaks (left out, the oldest the transport assumes).
  if (protocolVersion !== undefined && !types.SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion) && !types.isInitializeRequest(message)) {
    throw fail('request_malformed', `Unsupported MCP-Protocol-Version ${protocolVersion}; supported: ${types.SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`, 'MCP-Protocol-Version');
  }
  const request = types.isJSONRPCRequest(message) ? message : undefined;
  const [client, serverEnd] = InMemoryTransport.createLinkedPair();
  const answered = new Promise<JSONRPCMessage>((resolve) => {
    client.onmessage = (sent) => {
      if (request && 'id' in sent && sent.id === request.id && !('method' in sent)) resolve(sent);
    };
  });
  const server = await createMcpServer(session);
  await server.connect(serverEnd);
  try {
    await client.send(message);
    return request ? await answered : undefined;
  } finally {
    await server.close();
  }
}
