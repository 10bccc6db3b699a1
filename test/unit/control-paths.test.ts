import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No hand-written control path outside the rows: every call to the control API (the CLI, the
 * relay, the Testcontainers module, the Node API, MCP) goes through a row's client method, so
 * its path, method, headers and checks are the row's. This reads every string literal of src/
 * (comments are not literals) and fails, naming file:line, on one that starts with /_emulator
 * outside the rows themselves, unless it is listed below as no call, with why.
 */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Where a control path is at home: the rows (the control API's and the MCP endpoint's), and the kernel that serves them and fills in their paths. */
const ROW_FILES = [/^(control|mcp)\/[\w.-]+\.routes\.ts$/, /^operations\//];

/** Literals naming a control path that call nothing, by file and the literal as written. */
const NOT_CALLS: Record<string, string> = {
  "core/near-miss.ts '/_emulator/health'": 'named in the 404 of a readiness probe by another name (/healthz, /ready), for the reader to call',
  "http/request-log.ts '/_emulator/health'": 'compared with the path of a request served, to log health checks quietly',
  "http/origin-guard.ts '/_emulator/'": 'the prefix of the served requests the guard checks',
  "control/inspect.service.ts `/_emulator/onboardings/${r.id}/${action}`": 'a path in an answer (an onboarding\'s allowed actions), for the reader to call',
  "pages/explorer/explorer.paths.ts '/_emulator/docs'": 'a page this server serves',
  "pages/explorer/explorer.paths.ts '/_emulator/docs/explorer.js'": 'a page this server serves',
  "pages/explorer/explorer.paths.ts '/_emulator/docs/explorer.css'": 'a page this server serves',
  "pages/explorer/explorer.paths.ts '/_emulator/docs/swagger-ui-bundle.js'": 'a page this server serves',
  "pages/explorer/explorer.paths.ts '/_emulator/docs/swagger-ui.css'": 'a page this server serves',
  "pages/inspector/inspector.paths.ts '/_emulator/ui'": 'a page this server serves',
  "pages/inspector/inspector.paths.ts '/_emulator/ui/inspector.js'": 'a page this server serves',
  "pages/inspector/inspector.paths.ts '/_emulator/ui/inspector.css'": 'a page this server serves',
  "cli/commands/faults.ts '/_emulator/faults'": 'shown in the help of `faults remove` and `faults clear`; they call faults.remove and faults.clear',
  "cli/commands/faults.ts '/_emulator/delivery-faults'": 'shown in the help of `delivery-faults remove` and `clear`; they call the deliveryFaults methods',
  "testcontainers.ts '/_emulator/health'": "Testcontainers' own wait strategy (Wait.forHttp) polls it: its API takes a path",
  "parity/corpus.ts '/_emulator/'": "the prefix that marks a parity flow's set-up step (recorded, replayed only against an emulator)",
  "parity/replay.ts '/_emulator/health'": 'asked of a parity target that may be the real service, to learn whether it is an emulator; the kit talks to any target, so through no row client',
  // The browser scripts are compiled apart (tsconfig.browser.json) and run in the page, where the rows and their client are not.
  "browser/explorer.ts '/_emulator/keys'": 'the explorer page fetches the key table to fill in its authorize dialog',
  "browser/inspector.ts '/_emulator'": "the inspector page's base for the default workspace's control paths",
  "browser/inspector.ts '/_emulator/workspaces/'": "the inspector page's base for another workspace's control paths",
  "browser/inspector.ts '/_emulator/workspaces'": 'the inspector page lists the workspaces for its picker',
};

const CONTROL_PATH = /^\/_emulator(?:[/?]|$)/;

interface Found {
  key: string;
  at: string;
}

function sourceFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(`${dir}${entry.name}/`, `${prefix}${entry.name}/`) : entry.name.endsWith('.ts') ? [`${prefix}${entry.name}`] : [],
  );
}

/** Every string literal and template of a file whose text starts with a control path, with where it is. */
function controlLiterals(file: string, text: string): Found[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const visit = (node: ts.Node): void => {
    const start = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : ts.isTemplateExpression(node) ? node.head.text : undefined;
    if (start !== undefined && CONTROL_PATH.test(start)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ key: `${file} ${node.getText(source)}`, at: `src/${file}:${line + 1}` });
    }
    // A template's parts are not literals of their own.
    if (!ts.isTemplateExpression(node)) ts.forEachChild(node, visit);
    else for (const span of node.templateSpans) visit(span.expression);
  };
  visit(source);
  return found;
}

/** The control paths written outside the rows that are not listed as no call, as `file:line literal`. */
function handWrittenPaths(read: (file: string) => string = (file) => readFileSync(`${SRC}${file}`, 'utf8')): { calls: string[]; listed: Set<string> } {
  const calls: string[] = [];
  const listed = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    if (ROW_FILES.some((pattern) => pattern.test(file))) continue;
    for (const { key, at } of controlLiterals(file, read(file))) {
      if (key in NOT_CALLS) listed.add(key);
      else calls.push(`${at} ${key.slice(file.length + 1)}`);
    }
  }
  return { calls, listed };
}

describe('no hand-written control path outside the rows', () => {
  let scanned: ReturnType<typeof handWrittenPaths> | undefined;
  const scan = () => (scanned ??= handWrittenPaths());

  it('finds none in src: every call to the control API is a client method of a row', () => {
    expect(scan().calls).toEqual([]);
  });

  it('lists no exception that is gone (each listed literal is still where it is said to be)', () => {
    const { listed } = scan();
    expect(Object.keys(NOT_CALLS).filter((key) => !listed.has(key))).toEqual([]);
  });

  it('finds a path written in a call, by file and line: in a literal, in a template, wherever in the file', () => {
    const planted = (file: string, extra: string) => (name: string) => readFileSync(`${SRC}${name}`, 'utf8') + (name === file ? extra : '');
    const lines = (file: string) => readFileSync(`${SRC}${file}`, 'utf8').split('\n').length;
    const relay = 'client/relay.ts';
    expect(handWrittenPaths(planted(relay, "\nvoid request(own, 'DELETE', '/_emulator/relays');\n")).calls).toEqual([`src/${relay}:${lines(relay) + 1} '/_emulator/relays'`]);
    const tc = 'testcontainers.ts';
    expect(handWrittenPaths(planted(tc, '\nvoid request(o, \'DELETE\', `/_emulator/workspaces/${id}`);\n')).calls).toEqual([`src/${tc}:${lines(tc) + 1} \`/_emulator/workspaces/\${id}\``]);
    // In a comment, a path is documentation, not a call.
    expect(handWrittenPaths(planted(relay, '\n// POST /_emulator/relays/{id}/claim\n')).calls).toEqual([]);
  });
});
