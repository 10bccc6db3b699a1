import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { EMULATOR_VERSION } from '../core/product.js';
import { callTool, mcpTools, type McpSession } from './mcp.call.js';
import { MCP_RESOURCES, type ResourceSources } from './mcp.resources.js';

/**
 * The MCP server of one session, on the SDK's low-level Server (the tools' JSON schemas are the
 * rows' own, so no schema library in between). The SDK is loaded by import() on first use
 * only: an emulator that never serves MCP never loads it.
 */
export type McpServerSession = McpSession & ResourceSources & { requestId?: () => string };

const loadSdk = async () => {
  const [{ Server }, types] = await Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/types.js')]);
  return { Server, types };
};
let sdk: ReturnType<typeof loadSdk> | undefined;
export const mcpSdk = (): ReturnType<typeof loadSdk> => (sdk ??= loadSdk());

const INSTRUCTIONS = 'A local emulator of the employee-onboarding API. This session acts on one workspace with test keys only. '
  + 'Each tool takes `action` (a control method) and that method\'s arguments; an answer is the method\'s JSON as text, and {action, result} as structured content; refusals come back as the emulator\'s error envelope. '
  + 'The resources hold the OpenAPI document, the state machine and the error catalogue.';

/** Every answer as JSON, a bare string (clock.now) included, so a client parses each the same way. */
const text = (value: unknown): string => JSON.stringify(value) ?? 'null';

export async function createMcpServer(session: McpServerSession): Promise<Server> {
  const { Server, types } = await mcpSdk();
  const server = new Server(
    { name: 'onboarding-emulator', version: EMULATOR_VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: `${INSTRUCTIONS} Workspace: ${session.workspaceId}.` },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: [...mcpTools().values()].map(({ name, description, inputSchema, outputSchema, annotations }) => ({ name, description, inputSchema, outputSchema, annotations })),
  }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request) => {
    let answer;
    try {
      answer = await callTool(session, request.params.name, request.params.arguments ?? {}, session.requestId?.() ?? '');
    } catch (err) {
      // Not a refusal of the emulator (one that is not reachable, in `mcp --url`): said as it is.
      return { isError: true, content: [{ type: 'text' as const, text: (err as Error).message }] };
    }
    // The answer twice: structured, held to the tool's outputSchema, and as text for clients that read text only.
    return answer.ok
      ? { content: [{ type: 'text' as const, text: text(answer.value) }], structuredContent: { action: answer.action, result: answer.value ?? null } }
      : { isError: true, content: [{ type: 'text' as const, text: text(answer.error) }] };
  });
  server.setRequestHandler(types.ListResourcesRequestSchema, () => ({
    resources: MCP_RESOURCES.map(({ uri, name, description }) => ({ uri, name, description, mimeType: 'application/json' })),
  }));
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    const resource = MCP_RESOURCES.find((r) => r.uri === request.params.uri);
    if (!resource) throw new types.McpError(types.ErrorCode.InvalidParams, `No resource ${request.params.uri}; the resources are ${MCP_RESOURCES.map((r) => r.uri).join(', ')}.`);
    return { contents: [{ uri: resource.uri, mimeType: 'application/json', text: text(await resource.read(session)) }] };
  });
  return server;
}
