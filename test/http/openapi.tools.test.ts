import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../support/harness.js';

/**
 * The published document through the tools a client team points at it: Redocly's linter and
 * openapi-typescript, whose types must carry a small client journey through the TypeScript
 * compiler (and stop a wrong one).
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const REDOCLY = require.resolve('@redocly/cli/bin/cli.js');
const TSC = require.resolve('typescript/bin/tsc');
const ROOT = join(import.meta.dirname, '..', '..');

let dir: string;
let docFile: string;
let doc: Record<string, unknown>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openapi-tools-'));
  doc = (await harness().http().get('/openapi.json')).body as Record<string, unknown>;
  docFile = join(dir, 'openapi.json');
  writeFileSync(docFile, JSON.stringify(doc));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  location: { pointer: string }[];
}

/** `redocly lint` with its recommended rules, as JSON; no telemetry, no update check. */
async function lint(file: string): Promise<Problem[]> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const out = await run(process.execPath, [REDOCLY, 'lint', file, '--format=json', '--extends=recommended'], { cwd: dir, env, maxBuffer: 64 << 20 })
    .catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' })); // it exits 1 on errors
  return (JSON.parse(out.stdout) as { problems: Problem[] }).problems;
}

/**
 * Warnings of the recommended rules that describe the emulator as it is: the hosted flow's form
 * posts and `/` answer with redirects (303 after a post, 302 to the inspector), never a 2xx.
 */
const ACCEPTED_WARNINGS = [
  'operation-2xx-response #/paths/~1/get/responses',
  'operation-2xx-response #/paths/~1hosted~1{token}~1code/post/responses',
  'operation-2xx-response #/paths/~1hosted~1{token}~1code~1new/post/responses',
  'operation-2xx-response #/paths/~1hosted~1{token}~1details/post/responses',
  'operation-2xx-response #/paths/~1hosted~1{token}~1sign/post/responses',
];

describe('Redocly lint (recommended rules)', () => {
  it('finds no error, and no warning beyond the accepted ones', async () => {
    const problems = await lint(docFile);
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    const warnings = problems.filter((p) => p.severity === 'warn').map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    expect(warnings.sort()).toEqual([...ACCEPTED_WARNINGS].sort());
  });

  it('reports a broken document (a reference to nothing)', async () => {
    const broken = JSON.parse(JSON.stringify(doc)) as { components: { schemas: Record<string, unknown> } };
    delete broken.components.schemas.Document;
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify(broken));
    const problems = await lint(file);
    expect(problems.some((p) => p.severity === 'error' && p.ruleId === 'no-unresolved-refs')).toBe(true);
  });
});

/** A client's journey written against the generated types: create, read, list, events, webhooks, and a receiver's messages. */
const JOURNEY = `
import type { components, paths, webhooks } from './api';

type Schemas = components['schemas'];
type CreateBody = NonNullable<paths['/v1/onboardings']['post']['requestBody']>['content']['application/json'];
type Created = paths['/v1/onboardings']['post']['responses'][201]['content']['application/json'];
type ListQuery = NonNullable<paths['/v1/onboardings']['get']['parameters']['query']>;

export const body: CreateBody = {
  reference: 'hire-42',
  metadata: { team: 'blue', seats: 2 },
  employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
  employment: {
    position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_1', template_id: 'tpl_1',
    contract_type: 'permanent', hours_per_week: 24, hourly_wage_cents: 1400,
  },
  // With openapi-typescript's default settings: expires_in_hours has a default, so it may be left out.
  options: { send_invitation: true },
};
export const query: ListQuery = { status: 'in_review', limit: 10 };

export function afterCreate(created: Created): string {
  const status: 'pending_employee' = created.status;
  return created.hosted_url + status;
}

export function progress(onboarding: Schemas['Onboarding']): number {
  // Always there on a single onboarding: no optional chaining needed.
  const done = onboarding.steps.filter((s) => s.done).length;
  const files = onboarding.documents.map((d: Schemas['Document']) => d.id);
  return done + files.length;
}

export function firstRow(page: Schemas['OnboardingList']): Schemas['OnboardingListItem'] | undefined {
  return page.data[0];
}

export function describeEvent(event: Schemas['Event']): string {
  switch (event.type) {
    case 'onboarding.approval_given':
      return event.data.role;
    case 'onboarding.returned':
      return event.data.returned_to;
    case 'integration.sync_failed':
      return event.data.error_code ?? 'unknown';
    default:
      return event.data.onboarding_id;
  }
}

export function keepSecret(created: paths['/v1/webhooks']['post']['responses'][201]['content']['application/json']): string {
  return created.secret;
}

export function failure(error: Schemas['Error']): string {
  return error.error.code + error.error.request_id;
}

// A receiver's handlers, typed from the document's webhooks.
type MessageOf<T extends keyof webhooks> = NonNullable<webhooks[T]['post']['requestBody']>['content']['application/json'];
type SignatureOf<T extends keyof webhooks> = webhooks[T]['post']['parameters']['header']['Service-Signature'];

export function onCompleted(message: MessageOf<'onboarding.completed'>, signature: SignatureOf<'onboarding.completed'>): string {
  const type: 'onboarding.completed' = message.type;
  return [type, message.id, message.api_version, message.data.onboarding_id, message.data.data_version ?? 0, signature].join(' ');
}

export function onFailed(message: MessageOf<'integration.sync_failed'>): string {
  return (message.data.connector ?? 'none') + (message.data.error_code ?? 'unknown');
}

export const ping = (message: MessageOf<'ping'>): string => message.data.message;
`;

/** Mistakes the types must catch, each in a file of its own: what it is, and the text to find. */
const WRONG: Record<string, string> = {
  // The create body without the required employment.
  missingEmployment: `import type { paths } from './api';
type CreateBody = NonNullable<paths['/v1/onboardings']['post']['requestBody']>['content']['application/json'];
export const body: CreateBody = { employee: { first_name: 'A', last_name: 'B', email: 'a@b.test' } };
`,
  // A list row has no steps.
  stepsInList: `import type { components } from './api';
export const steps = (row: components['schemas']['OnboardingListItem']) => row.steps.length;
`,
  // An onboarding.created event carries no role.
  roleOnCreated: `import type { components } from './api';
export function role(event: components['schemas']['Event']): string {
  return event.type === 'onboarding.created' ? event.data.role : '';
}
`,
  // An onboarding.completed message carries no role.
  roleOnCompletedMessage: `import type { webhooks } from './api';
type Completed = NonNullable<webhooks['onboarding.completed']['post']['requestBody']>['content']['application/json'];
export const role = (message: Completed): string => message.data.role;
`,
  // A webhook address read later has no secret.
  secretOnRead: `import type { paths } from './api';
type Read = paths['/v1/webhooks/{id}']['get']['responses'][200]['content']['application/json'];
export const secret = (hook: Read): string => hook.secret;
`,
};

/**
 * The /v1 writes the README and docs/api.md send with curl and show succeeding, as (method, path,
 * JSON body): lines joined at their backslashes, `VAR='...'` bodies followed, a path's shell
 * variables kept.
 */
function documentedBodies(): { method: string; path: string; body: string }[] {
  const out: { method: string; path: string; body: string }[] = [];
  for (const page of ['README.md', 'docs/api.md']) {
    const text = readFileSync(join(ROOT, page), 'utf8').replace(/\\\n\s*/g, ' ');
    const vars = new Map([...text.matchAll(/^(\w+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!]));
    // A command runs to the end of its line, a quoted body across lines included.
    for (const m of text.matchAll(/curl (?:[^'\n]|'[^']*')*/g)) {
      const line = m[0];
      // Only what the docs show succeeding: a refusal's example is not a request type's to accept.
      if (!/^[^\n]*\n# => 2\d\d/.test(text.slice(m.index + line.length))) continue;
      const target = /-X (POST|PATCH|PUT) (?:https?:\/\/)?localhost:4010(\/v1\/[^\s'"?]*)/.exec(line);
      const data = /-d '([^']*)'/.exec(line)?.[1] ?? vars.get(/-d "\$(\w+)"/.exec(line)?.[1] ?? '');
      if (target && data !== undefined) out.push({ method: target[1]!.toLowerCase(), path: target[2]!, body: data });
    }
  }
  return out;
}

/** The document's path a concrete one matches (`/v1/onboardings/onb_x/cancel` is `/v1/onboardings/{id}/cancel`). */
function templateOf(path: string): string | undefined {
  return Object.keys(doc.paths as object).find((t) => new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`).test(path));
}

describe('openapi-typescript types', () => {
  it('carry a client journey through tsc, and stop each wrong one', async () => {
    const types = astToString(await openapiTS(doc as unknown as OpenAPI3, { silent: true }));
    expect(types).toContain('Onboarding: {');
    writeFileSync(join(dir, 'api.ts'), types);
    writeFileSync(join(dir, 'journey.ts'), JOURNEY);
    for (const [name, text] of Object.entries(WRONG)) writeFileSync(join(dir, `${name}.ts`), text);
    // Every body the docs send, as the request type of its operation: a field with a default may be left out.
    const bodies = documentedBodies();
    expect(bodies.some((b) => b.body.includes('"options": {"send_invitation": true}'))).toBe(true);
    writeFileSync(join(dir, 'documented.ts'), [
      "import type { paths } from './api';",
      ...bodies.map((b, i) => {
        const template = templateOf(b.path);
        expect(template, b.path).toBeDefined();
        return `export const body${i}: NonNullable<paths['${template}']['${b.method}']['requestBody']>['content']['application/json'] = ${b.body};`;
      }),
    ].join('\n'));
    const files = ['journey.ts', 'documented.ts', ...Object.keys(WRONG).map((n) => `${n}.ts`)];
    const args = [TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--pretty', 'false', ...files];
    const out = await run(process.execPath, args, { cwd: dir, maxBuffer: 16 << 20 }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? '',
    );
    const errorsIn = (file: string) => out.split('\n').filter((line) => line.startsWith(`${file}(`));
    expect(errorsIn('journey.ts')).toEqual([]);
    expect(errorsIn('documented.ts')).toEqual([]);
    expect(errorsIn('api.ts')).toEqual([]);
    expect(errorsIn('missingEmployment.ts').join('\n')).toMatch(/employment/);
    expect(errorsIn('stepsInList.ts').join('\n')).toMatch(/steps/);
    expect(errorsIn('roleOnCreated.ts').join('\n')).toMatch(/role/);
    expect(errorsIn('secretOnRead.ts').join('\n')).toMatch(/secret/);
    expect(errorsIn('roleOnCompletedMessage.ts').join('\n')).toMatch(/role/);
  }, 120_000);
});
