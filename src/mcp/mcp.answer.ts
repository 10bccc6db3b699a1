import { fail } from '../core/errors.js';
import { createMcpServer, mcpSdk, protocolVersions, type McpServerSession } from './mcp.server.js';

/**
 * One MCP message received over HTTP, answered statelessly by the SDK's own HTTP serving: the
 * stateless revision's requests (the version in each request's _meta) by its per-request
 * handler, the initialize revisions' by a streamable HTTP transport without sessions. Either
 * way a server for this message alone (the workspace comes with each request's path, so there
 * is nothing to keep) and an answer in JSON, never an event stream. What the SDK answers is
 * returned for the control row to reply with, so the adapter's writer sends it as every answer.
 */
export interface McpHeaders {
  /** MCP-Protocol-Version, Mcp-Method and Mcp-Name, as the client sent them. */
  [name: string]: string | undefined;
}

export interface McpAnswer {
  status: number;
  /** The JSON-RPC answer; none for a notification or a response (202). */
  body: unknown;
}

/** The message is handed to the SDK as a request to one internal address: the wire it came on is the emulator's. */
const INTERNAL_ADDRESS = 'http://mcp.internal/mcp';

export async function answerMessage(session: McpServerSession, body: unknown, headers: McpHeaders): Promise<McpAnswer> {
  const sdk = await mcpSdk();
  // Held to the SDK's own message schemas: no answer would ever come to what is none of these.
  if (!sdk.isJSONRPCRequest(body) && !sdk.isJSONRPCNotification(body) && !sdk.isJSONRPCResultResponse(body) && !sdk.isJSONRPCErrorResponse(body)) {
    throw fail('parameter_invalid', 'The body is not a JSON-RPC 2.0 message: a request has an id and a method, a notification a method alone, a response an id and a result or an error.');
  }
  const versions = await protocolVersions();
  const version = headers['mcp-protocol-version'];
  // Every message after initialize names the version its client speaks (left out, the oldest the transport assumes).
  if (version !== undefined && !versions.includes(version) && !sdk.isInitializeRequest(body)) {
    throw fail('request_malformed', `Unsupported MCP-Protocol-Version ${version}; supported: ${versions.join(', ')}.`, 'MCP-Protocol-Version');
  }
  const sent: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) sent[name] = value;
  // The body goes as parsedBody, which the SDK reads instead of the request's: it is not written out again.
  const request = new Request(INTERNAL_ADDRESS, { method: 'POST', headers: sent });
  const factory = () => createMcpServer(session);
  let response: Response;
  if (await sdk.isLegacyRequest(request, body)) {
    const server = await factory();
    const transport = new sdk.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      response = await transport.handleRequest(request, { parsedBody: body });
    } finally {
      await server.close();
    }
  } else {
    // Its default response mode answers JSON unless a handler sends a message before its answer, which none does.
    const handler = sdk.createMcpHandler(factory, { legacy: 'reject' });
    try {
      response = await handler.fetch(request, { parsedBody: body });
    } finally {
      await handler.close();
    }
  }
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error('The MCP server answered with an event stream; its answers are JSON.');
  const answer = await response.text();
  return { status: response.status, body: answer === '' ? undefined : JSON.parse(answer) };
}
