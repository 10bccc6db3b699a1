import { JOURNEY, sandboxCatalog, type Catalog, type CatalogEntry, type CatalogRequest, type CatalogSection } from './catalog.js';

/**
 * docs/catalog.md, rendered from the same catalogue GET /_emulator/catalog answers:
 * `npm run docs:catalog` writes it, a test compares the committed page with this text.
 */

const HEADINGS: Record<CatalogSection, { title: string; intro: string }> = {
  magic_address: {
    title: 'Magic e-mail addresses',
    intro: 'An employee e-mail address whose part before the `@` (and before any `+tag`, ignoring case) is one of these plays that journey by itself on the workspace clock ([scenarios.md](scenarios.md#magic-e-mail-addresses)). **Ends in** is the status 10 days later.',
  },
  test_value: {
    title: 'Test identity numbers and values a check refuses',
    intro: 'The hosted form checks the BSN (11-check) and the IBAN (mod-97); `metadata` refuses values that look like personal data (`422 metadata_personal_data`).',
  },
  payroll_failure: {
    title: 'Payroll failures',
    intro: 'What makes a payroll run fail (besides the magic addresses), and the `payroll.error_code` it leaves; and the one connector that never fails.',
  },
  control_action: {
    title: 'Control actions',
    intro: 'What people do in the product\'s screens, one trigger of the [state machine](state-machine.md) each. **Needs** is the statuses it is allowed in; elsewhere it answers 409 with **Refused** (`onboarding_completed` or `onboarding_cancelled` once finished).',
  },
  transition: {
    title: 'Other transitions',
    intro: 'The triggers no control action names: the way in that fires each.',
  },
};

const code = (text: string) => `\`${text.replace(/\|/g, '\\|')}\``;
const list = (items: readonly string[] | undefined) => (items && items.length > 0 ? items.map(code).join(', ') : '—');

function requestText(r: CatalogRequest): string {
  const body = r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`;
  return `${r.method} ${r.path}${body}${r.auth ? ' (test key)' : ''}`;
}

/** A request, a creation other than the journey's told by what it changes in step 1's body. */
function ownRequestText(r: CatalogRequest): string {
  const first = JOURNEY[0]!.request;
  if (r.method !== first.method || r.path !== first.path || r.body === undefined) return code(requestText(r));
  const changed = Object.fromEntries(Object.entries(r.body).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(first.body?.[k])));
  const call = code(`${r.method} ${r.path}`);
  return Object.keys(changed).length === 0 ? `${call} with step 1's body` : `${call} with step 1's body and ${code(JSON.stringify(changed))}`;
}

const same = (a: CatalogRequest, b: CatalogRequest) => JSON.stringify(a) === JSON.stringify(b);

/** How many of the example's first requests are the journey's first steps. */
function journeySteps(e: CatalogEntry): number {
  let n = 0;
  while (n < JOURNEY.length && n < e.example.length - 1 && same(e.example[n]!, JOURNEY[n]!.request)) n++;
  return n;
}

/** The example: the journey's part by where it ends, then the example's own requests in full. */
function exampleText(e: CatalogEntry): string {
  const n = journeySteps(e);
  const own = e.example.slice(n).map(ownRequestText).join(', then ');
  return n === 0 ? own : `from ${JOURNEY[n - 1]!.reaches}: ${own}`;
}

function outcomeText(e: CatalogEntry): string {
  const x = e.expect;
  const parts = [
    x.status ? `status ${code(x.status)}` : '',
    x.events && x.events.length > 0 ? `events ${list(x.events)}` : '',
    x.error ? `${x.error.status} ${code(x.error.code)}` : '',
    x.payroll_error_code ? `payroll.error_code ${code(x.payroll_error_code)}` : '',
  ].filter(Boolean);
  return parts.join('; ');
}

function sectionRows(section: CatalogSection, entries: CatalogEntry[]): string[] {
  const rows = entries.filter((e) => e.section === section);
  if (section === 'control_action' || section === 'transition') {
    return [
      '| Name | Input | Needs | Gives | Refused | Example |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows.map((e) => {
        const input = e.client ? `${code(e.input)}<br>${code(e.client)}` : code(e.input);
        const name = e.name === e.trigger ? code(e.name) : `${code(e.name)} (${code(e.trigger!)})`;
        return `| ${name} | ${input} | ${list(e.needs)} | ${outcomeText(e)} | ${code(e.refusal!)} | ${exampleText(e)} |`;
      }),
    ];
  }
  return [
    `| ${section === 'magic_address' ? 'Address' : 'Input'} | What it does | ${section === 'magic_address' ? 'Ends in' : 'Gives'} | Example |`,
    '| --- | --- | --- | --- |',
    ...rows.map((e) => `| ${code(e.input)} | ${e.outcome} | ${outcomeText(e)} | ${exampleText(e)} |`),
  ];
}

export function catalogMarkdown(catalog: Catalog = sandboxCatalog()): string {
  const older = Object.entries(catalog.older_names).map(([now, was]) => `${code(now)} → ${code(was!)}`).join(', ');
  return [
    '<!-- Generated from the tables the code uses (src/control/catalog.ts) by `npm run docs:catalog`; do not edit by hand. -->',
    '',
    '# The sandbox catalogue',
    '',
    'Every input that makes the emulator do something on purpose, and every control action, with',
    'what it gives and an example. `GET /_emulator/catalog` answers the same as JSON (the MCP',
    'resource `emulator://catalog.json` too); a test plays every example against a fresh default',
    'workspace and checks what each row says.',
    '',
    'Examples run in order against the default fixtures (`org_acme`, its template',
    '`tpl_acme_standard` and its users); `{id}` is the onboarding the first request created,',
    'a dashboard onboarding made with `POST /_emulator/onboardings`.',
    `Events are those the last request fires, each followed by its older name where it has one (${older}).`,
    '',
    '## The journey the examples start from',
    '',
    'An example that says "from" a point first plays these steps up to it, in order.',
    '',
    '| Step | Request | Leaves the onboarding |',
    '| --- | --- | --- |',
    ...JOURNEY.map((s, i) => `| ${i + 1} | ${code(requestText(s.request))} | ${s.reaches} |`),
    '',
    ...catalog.sections.flatMap((s) => [`## ${HEADINGS[s].title}`, '', HEADINGS[s].intro, '', ...sectionRows(s, catalog.entries), '']),
  ].join('\n');
}
