import type { Server, Tool } from '@modelcontextprotocol/server';
import { EMULATOR_VERSION } from '../core/product.js';
import { callTool, mcpTools, type McpSession } from './mcp.call.js';
import { MCP_RESOURCES, type ResourceSources } from './mcp.resources.js';

/**
 * The MCP server of one session, on the SDK's low-level Server (the tools' JSON schemas are the
 * rows' own, so no schema library in between). The SDK is loaded by import() on first use
 * only: an emulator that never serves MCP never loads it.
 */
export type McpServerSession = McpSession & ResourceSources & { requestId?: () => string };

const loadSdk = () => import('@modelcontextprotocol/server');
let sdk: ReturnType<typeof loadSdk> | undefined;
export const mcpSdk = (): ReturnType<typeof loadSdk> => (sdk ??= loadSdk());

/**
 * The stateless revision (no initialize, the version in each request's _meta, server/discover)
 * first, then the initialize revisions the SDK speaks. The SDK keeps its list of stateless
 * revisions to itself, so the one it implements is named here.
 */
const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];
export const protocolVersions = async (): Promise<string[]> => [...MODERN_PROTOCOL_VERSIONS, ...(await mcpSdk()).SUPPORTED_PROTOCOL_VERSIONS];

const INSTRUCTIONS = 'A local emulator of the employee-onboarding API. This session acts on one workspace with test keys only. '
  + 'Each tool takes `action` (a control method) and that method\'s arguments; an answer is the method\'s JSON as text, and {action, result} as structured content; refusals come back as the emulator\'s error envelope. '
  + 'The resources hold the OpenAPI document, the state machine and the error catalogue.';

/** Every answer as JSON, a bare string (clock.now) included, so a client parses each the same way. */
const text = (value: unknown): string => JSON.stringify(value) ?? 'null';

export async function createMcpServer(session: McpServerSession): Promise<Server> {
  const { Server, ResourceNotFoundError } = await mcpSdk();
  const server = new Server(
    { name: 'onboarding-emulator', version: EMULATOR_VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: `${INSTRUCTIONS} Workspace: ${session.workspaceId}.`, supportedProtocolVersions: await protocolVersions() },
  );
  // The rows' JSON schemas are JSON; the SDK types a schema as a tree of JSON values.
  const tools = [...mcpTools().values()].map(({ name, description, inputSchema, outputSchema, annotations }) => ({ name, description, inputSchema, outputSchema, annotations }) as Tool);
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', async (request) => {
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
  server.setRequestHandler('resources/list', () => ({
    resources: MCP_RESOURCES.map(({ uri, name, description }) => ({ uri, name, description, mimeType: 'application/json' })),
  }));
  server.setRequestHandler('resources/read', async (request) => {
    const resource = MCP_RESOURCES.find((r) => r.uri === request.params.uri);
    if (!resource) throw new ResourceNotFoundError(request.params.uri, `No resource ${request.params.uri}; the resources are ${MCP_RESOURCES.map((r) => r.uri).join(', ')}.`);
    return { contents: [{ uri: resource.uri, mimeType: 'application/json', text: text(await resource.read(session)) }] };
  });
  return server;
}
