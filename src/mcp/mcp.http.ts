import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpServer, type McpServerSession } from './mcp.server.js';

/**
 * One MCP request over streamable HTTP, stateless: a server and a transport for this request
 * alone (the workspace comes with each request's path, so there is no session to keep), JSON
 * answers rather than an event stream. The transport is loaded with the SDK, on first use.
 */
let transportModule: Promise<typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')> | undefined;

export async function serveMcpRequest(session: McpServerSession, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  transportModule ??= import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const [{ StreamableHTTPServerTransport }, server] = await Promise.all([transportModule, createMcpServer(session)]);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
