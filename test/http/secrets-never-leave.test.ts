import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, enableTracing, type InProcessEmulator } from '../../src/index.js';
import { createBody, KEYS } from '../support/harness.js';
import { receiver } from '../support/serve.js';

/**
 * Secrets never leave: a live key (as a bearer, as X-Api-Key, in the query, in a body, as an
 * Idempotency-Key and in a path), a webhook signing secret, a hosted link token, a cookie and a
 * Proxy-Authorization header are planted over HTTP on a real server, then every output a
 * client can read is read (the journals and their HARs, the deliveries and their HAR, the
 * Postman export, the inspector's reads, the scenario report and its JUnit, error answers, the
 * MCP tools, the log at every level and the spans) and none holds one of them whole. The
 * outputs that hand a secret out by design (the answer that made it, the key table, the
 * snapshot, the outbox) are left out here: docs/decisions.md.
 */

/** A live key with a character beyond [A-Za-z0-9_]: its masked form is `hrs_live_…ECRET9`. */
const LIVE = 'hrs_live_acme-PRODSECRET9';
const COOKIE = 'ck7Qz1VbXw9Lm4711';
const PROXY = 'cHJveHktc2VjcmV0LTQ3MTE';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const TRACING_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_BSP_SCHEDULE_DELAY', 'OTEL_SDK_DISABLED', 'OTEL_TRACES_EXPORTER'];

/** An OTLP/HTTP endpoint on 127.0.0.1 that keeps every export's text as it came. */
async function rawCollector(): Promise<{ url: string; text(): string; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    text: () => bodies.join('\n'),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Every log line, at every level. */
function capturedLog() {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => { lines.push(chunk.toString('utf8')); done(); } });
  return { logger: pino({ level: 'trace' }, sink), text: () => lines.join('') };
}

async function started(logger: Logger): Promise<{ em: InProcessEmulator; url: string }> {
  const em = createEmulator({ logger });
  cleanup.push(() => em.close());
  const { url } = await em.start(0, '127.0.0.1');
  return { em, url };
}

/** A key-table entry for LIVE, put in through a snapshot restore (the fixtures' keys are [A-Za-z0-9_] only). */
async function addLiveKey(url: string): Promise<void> {
  const snapshot = (await (await fetch(`${url}/_emulator/snapshot`)).json()) as { store: { keys: { key: string }[] } };
  const live = snapshot.store.keys.find((k) => k.key === KEYS.live)!;
  snapshot.store.keys.push({ ...live, key: LIVE });
  const put = await fetch(`${url}/_emulator/snapshot`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(snapshot) });
  expect(put.status, await put.clone().text()).toBe(200);
}

const ALSO_SENT = { Cookie: `hosted_session=${COOKIE}`, 'Proxy-Authorization': `Basic ${PROXY}` };

function as(url: string, key: string | null, extra: Record<string, string> = {}) {
  const headers = { ...ALSO_SENT, ...(key === null ? {} : { Authorization: `Bearer ${key}` }), ...extra };
  return {
    get: (path: string) => fetch(`${url}${path}`, { headers }),
    send: (method: string, path: string, body: unknown) => fetch(`${url}${path}`, { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  };
}

/**
 * Every run of 8 characters of a secret past its known prefix: a masked form shows at most the
 * last 6, so an output holding one of these shows more of the secret than its mask does.
 */
function windows(secret: string, prefix = ''): string[] {
  const body = secret.slice(prefix.length);
  return Array.from({ length: Math.max(0, body.length - 7) }, (_, i) => body.slice(i, i + 8));
}

/** `output: secret` for each output showing more of a secret than its masked form: empty when nothing leaked. */
function leaks(outputs: Record<string, string>, secrets: Record<string, string[]>): string[] {
  const found: string[] = [];
  for (const [output, text] of Object.entries(outputs)) {
    for (const [name, runs] of Object.entries(secrets)) if (runs.some((run) => text.includes(run))) found.push(`${output}: ${name}`);
  }
  return found;
}

const textOf = async (res: Response): Promise<string> => res.text();

describe('secrets never leave', () => {
  it('no output a client can read holds a key, a webhook secret, a link token, a cookie or a proxy credential whole', async () => {
    const collector = await rawCollector();
    cleanup.push(() => collector.close());
    const savedEnv = Object.fromEntries(TRACING_VARIABLES.map((v) => [v, process.env[v]]));
    cleanup.push(async () => {
      for (const [v, value] of Object.entries(savedEnv)) {
        if (value === undefined) delete process.env[v];
        else process.env[v] = value;
      }
    });
    for (const v of TRACING_VARIABLES) delete process.env[v];
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' });
    const tracing = await enableTracing();
    expect(tracing).not.toBeNull();
    cleanup.push(() => tracing!.shutdown());

    const log = capturedLog();
    const { url } = await started(log.logger);
    const hooks = await receiver((_body, _req, res) => res.writeHead(204).end());
    cleanup.push(() => hooks.close());
    await addLiveKey(url);

    // The live key, every way a client might send it.
    expect((await as(url, LIVE).get('/v1/onboardings')).status).toBe(200);
    expect((await as(url, null, { 'X-Api-Key': LIVE }).get('/v1/onboardings')).status).toBe(401);
    expect((await as(url, null).get(`/v1/onboardings?api_key=${LIVE}`)).status).toBe(401);
    expect((await as(url, KEYS.owner).get(`/v1/organization?api_key=${LIVE}`)).status).toBe(422);
    expect((await as(url, KEYS.owner, { 'Idempotency-Key': LIVE }).get('/v1/organization')).status).toBe(200);
    expect((await as(url, KEYS.owner).get(`/v1/onboardings/${LIVE}`)).status).toBe(404);
    expect((await as(url, KEYS.owner).send('POST', '/v1/webhooks', { url: `${hooks.url}/refused`, api_key: LIVE })).status).toBe(422);
    const errorAnswers = [await textOf(await as(url, KEYS.owner).get(`/v1/onboardings/${LIVE}`)), await textOf(await fetch(`${url}/_emulator/onboardings/${LIVE}`))];

    // A webhook secret (made, then rotated), an address whose URL holds the key, an onboarding holding it in its reference.
    const made = (await (await as(url, KEYS.owner).send('POST', '/v1/webhooks', { url: `${hooks.url}/hook?k=${LIVE}` })).json()) as { id: string; secret: string };
    expect(made.secret).toMatch(/^whsec_/);
    const rotated = (await (await as(url, KEYS.owner).send('POST', `/v1/webhooks/${made.id}/rotate-secret`, { overlap_hours: 1 })).json()) as { secret: string };
    const created = (await (await as(url, KEYS.owner).send('POST', '/v1/onboardings', createBody({ reference: LIVE }))).json()) as { id: string; hosted_url: string };
    const token = created.hosted_url.split('/hosted/')[1]!;
    expect(token.length).toBeGreaterThan(20);
    errorAnswers.push(await textOf(await fetch(`${url}/_emulator/onboardings/${made.secret}`)));

    // The link token on the employee's page, with the cookie and the proxy credential.
    expect((await as(url, null).get(`/hosted/${token}`)).status).toBe(200);
    expect((await as(url, null).get(`/hosted/${token}/missing`)).status).toBeGreaterThanOrEqual(400);

    // A scenario whose expectation names the key, broken by a request that sends it.
    const scenario = { version: 1, name: 'leak', rules: [], expect: [{ name: 'no request with the live key', never: { path: '/v1/organization', idempotency_key: LIVE } }] };
    expect((await fetch(`${url}/_emulator/scenario`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(scenario) })).status).toBe(200);
    expect((await as(url, KEYS.owner, { 'Idempotency-Key': LIVE }).get('/v1/organization')).status).toBe(200);
    const waited = await fetch(`${url}/_emulator/wait?for=delivery&status=succeeded&count=1&timeout_ms=5000`);
    expect(waited.status).toBe(200);

    const read = async (path: string) => textOf(await fetch(`${url}${path}`, { headers: ALSO_SENT }));
    const outputs: Record<string, string> = {
      'requests': await read('/_emulator/requests?limit=100'),
      'requests HAR': await read('/_emulator/requests?format=har'),
      'unmatched requests': await read('/_emulator/requests?unmatched=true'),
      'unmatched HAR': await read('/_emulator/requests?unmatched=true&format=har'),
      'requests verify': await textOf(await fetch(`${url}/_emulator/requests/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ matcher: { path: `/v1/onboardings/${LIVE}`, status: 200 }, expected: { exactly: 1 } }) })),
      'deliveries': await read('/_emulator/deliveries'),
      'deliveries HAR': await read('/_emulator/deliveries?format=har'),
      'delivery log': await textOf(await as(url, KEYS.owner).get(`/v1/webhooks/${made.id}/deliveries`)),
      'postman': await read('/_emulator/postman'),
      'inspector onboardings': await read('/_emulator/onboardings?limit=200'),
      'inspector onboarding': await read(`/_emulator/onboardings/${created.id}`),
      'inspector events': await read('/_emulator/events'),
      'inspector webhooks': await read('/_emulator/webhooks?deliveries=5'),
      'inspector workspaces': await read('/_emulator/workspaces'),
      'audit log': await read('/_emulator/audit-log'),
      'scenario': await read('/_emulator/scenario'),
      'scenario report': await read('/_emulator/scenario/report?final=true'),
      'scenario JUnit': await read('/_emulator/scenario/report?final=true&format=junit'),
      'scenario CTRF': await read('/_emulator/scenario/report?final=true&format=ctrf'),
      'wait': await waited.text(),
      'error answers': errorAnswers.join('\n'),
    };
    expect(outputs['scenario report']).toContain('failed');

    // The MCP tools, over HTTP, as an agent reads them.
    const client = new Client({ name: 'secrets-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/_emulator/mcp`)));
    cleanup.push(() => client.close());
    const tool = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as { content: { text?: string }[] };
      return result.content.map((c) => c.text ?? '').join('\n');
    };
    outputs['MCP'] = [
      await tool('requests', { action: 'requests.find', query: { limit: 100 } }),
      await tool('requests', { action: 'requests.har' }),
      await tool('requests', { action: 'requests.find', query: { unmatched: true } }),
      await tool('requests', { action: 'requests.har', query: { unmatched: true } }),
      await tool('webhooks', { action: 'webhooks.list' }),
      await tool('webhooks', { action: 'webhooks.deliveries', id: made.id }),
      await tool('webhooks', { action: 'deliveries.list' }),
      await tool('webhooks', { action: 'deliveries.har' }),
      await tool('onboardings', { action: 'onboardings.list' }),
      await tool('onboardings', { action: 'onboardings.inspect', id: created.id }),
      await tool('onboardings', { action: 'onboardings.inspect', id: made.secret }),
      await tool('scenario', { action: 'scenario.report', final: true }),
      await tool('postman', { action: 'postman.collection' }),
      await tool('workspace', { action: 'workspace.describe', workspaceId: 'default' }),
    ].join('\n');
    // The key table and the snapshot are the state, webhook secrets and link tokens included; through MCP its live keys are masked.
    outputs['MCP keys and snapshot (live keys)'] = [await tool('workspace', { action: 'keys' }), await tool('snapshot', { action: 'snapshot' })].join('\n');

    await tracing!.shutdown();
    outputs['spans'] = collector.text();
    outputs['log'] = log.text();

    const secrets = {
      'live key': windows(LIVE, 'hrs_live_'),
      'webhook secret': windows(made.secret, 'whsec_'),
      'rotated webhook secret': windows(rotated.secret, 'whsec_'),
      'link token': windows(token),
      cookie: windows(COOKIE),
      'proxy credential': windows(PROXY),
    };
    const { 'MCP keys and snapshot (live keys)': state, ...rest } = outputs;
    expect([...leaks(rest, secrets), ...leaks({ 'MCP keys and snapshot': state! }, { 'live key': secrets['live key'] })]).toEqual([]);

    // Each secret is there, masked: the outputs read are the ones that met it.
    const shownLive = 'hrs_live_…ECRET9';
    for (const output of ['requests', 'requests HAR', 'unmatched requests', 'unmatched HAR', 'inspector onboarding', 'error answers', 'spans', 'log', 'MCP keys and snapshot (live keys)']) {
      expect(outputs[output], output).toContain(shownLive);
    }
    expect(outputs['requests HAR']).toContain(`whsec_…${made.secret.slice(-6)}`);
    expect(outputs['requests HAR']).toContain(`/hosted/…${token.slice(-6)}`);
    expect(outputs['log']).toContain(`/hosted/…${token.slice(-6)}`);
  });

  it('a restore through MCP puts a live key back in the key table only, never into text an agent wrote', async () => {
    const { url } = await started(pino({ level: 'silent' }));
    const paths: string[] = [];
    const hooks = await receiver((_body, req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(204).end();
    });
    cleanup.push(() => hooks.close());
    const client = new Client({ name: 'secrets-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/_emulator/mcp`)));
    cleanup.push(() => client.close());
    const tool = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError ?? false, result.content[0]!.text).toBe(false);
      return JSON.parse(result.content[0]!.text) as T;
    };

    // The agent is shown the live key masked, and writes that text into a reference and a webhook URL.
    const keys = await tool<{ key: string; environment: string }[]>('workspace', { action: 'keys' });
    const shown = keys.find((k) => k.environment === 'live')!.key;
    expect(shown).toBe('hrs_live_…_owner');
    const created = await tool<{ id: string }>('onboardings', { action: 'onboardings.create', body: { ...createBody({ reference: shown }), organization_id: 'org_acme' } });
    expect((await as(url, KEYS.owner).send('POST', '/v1/webhooks', { url: `${hooks.url}/hook?k=${shown}` })).status).toBe(201);

    const snapshot = await tool<Record<string, unknown>>('snapshot', { action: 'snapshot' });
    expect(JSON.stringify(snapshot)).not.toContain(KEYS.live);
    await tool('snapshot', { action: 'restore', body: snapshot });

    // The key table has the live key back: it still answers.
    expect((await as(url, KEYS.live).get('/v1/onboardings')).status).toBe(200);
    // The text the agent wrote is still that text, read with a test key and at the receiver.
    const read = (await (await as(url, KEYS.owner).get(`/v1/onboardings/${created.id}`)).json()) as { reference: string };
    expect(read.reference).toBe(shown);
    const listed = await textOf(await as(url, KEYS.owner).get('/v1/webhooks'));
    expect(listed).toContain(`k=${shown}`);
    expect((await as(url, KEYS.owner).send('POST', '/v1/onboardings', createBody())).status).toBe(201);
    expect((await fetch(`${url}/_emulator/wait?for=delivery&status=succeeded&timeout_ms=5000`)).status).toBe(200);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(decodeURIComponent(path)).toBe(`/hook?k=${shown}`);
    expect(JSON.stringify((await (await fetch(`${url}/_emulator/snapshot`)).json()))).not.toMatch(/"reference":"hrs_live_acme|k=hrs_live_acme/);

    // Given to PUT /_emulator/snapshot as it is, a masked key in the table is no key: refused, nothing restored.
    const put = await fetch(`${url}/_emulator/snapshot`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(snapshot) });
    expect(put.status).toBe(422);
    expect(((await put.json()) as { error: { code: string } }).error.code).toBe('snapshot_invalid');
    expect((await as(url, KEYS.live).get('/v1/onboardings')).status).toBe(200);
  });
});
