import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJournalLimit, SERVE_OPTIONS, type ServeOptions } from '../../src/config.js';
import type { ClockOptions } from '../../src/core/clock.js';
import type { DeliverySettings } from '../../src/delivery/settings.js';
import { createEmulator, type InProcessOptions } from '../../src/in-process.js';

/**
 * The `serve` options and their createEmulator() counterparts are two sets of names (see
 * docs/decisions.md, CLI and logging). This keeps the options table of docs/configuration.md,
 * which the README links to, true: every option has a row with its flag, environment variable
 * and default, every row names an option the types really have, and the grouped options do
 * what their flags do.
 */

/** An option of createEmulator(), one level into the grouped ones: a rename fails the typecheck. */
type OptionPath = keyof InProcessOptions | `webhooks.${keyof DeliverySettings}` | `clock.${keyof ClockOptions}`;
/** How a `serve` option is given in process: an option, an argument of start() and listen(), or not at all (null: CLI only). */
type Counterpart = OptionPath | 'start(port)' | 'start(port, host)' | null;

/** A `serve` option added to ServeOptions without a counterpart here fails the typecheck. */
const COUNTERPARTS: Record<keyof ServeOptions, Counterpart> = {
  port: 'start(port)',
  host: 'start(port, host)',
  fixtures: 'fixtures',
  scenario: 'scenario',
  seed: 'seed',
  logLevel: 'logger',
  logFormat: 'logger',
  clock: 'clock.mode',
  startTime: 'clock.start',
  publicUrl: 'publicUrl',
  webhookUrlPolicy: 'webhooks.urlPolicy',
  signatureClock: 'webhooks.signatureClock',
  webhookTimeoutMs: 'webhooks.timeoutMs',
  rateLimit: 'rateLimit',
  journalLimit: 'journalLimit',
  stateFile: 'stateFile',
  resetState: 'resetState',
  stateFileRepair: 'stateFileRepair',
  drainTimeoutMs: null,
  ui: 'ui',
  allowedHosts: 'allowedHosts',
};

interface Row {
  flag: string;
  env: string;
  defaultValue: string;
  counterpart: string;
}

/** The rows of the table under "## Options" in docs/configuration.md: flag, environment, default, createEmulator(), meaning. */
function documentedRows(): Row[] {
  const text = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
  const section = /^## Options\b[^\n]*\n([\s\S]*?)(?=^## )/m.exec(text)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `-'))
    .map((line) => {
      const [flag = '', env = '', defaultValue = '', counterpart = ''] = line.split('|').slice(1).map((cell) => cell.trim());
      return { flag, env, defaultValue, counterpart };
    });
}

const longFlag = (flag: string) => /--[a-z-]+/.exec(flag)![0];

describe('serve options and createEmulator() options', () => {
  const rows = documentedRows();

  it('every ServeOptions key is a serve option, and the other way round', () => {
    expect(SERVE_OPTIONS.map((o) => o.key).sort()).toEqual(Object.keys(COUNTERPARTS).sort());
  });

  it('docs/configuration.md has one row per serve option, with its flag, environment variable and default', () => {
    expect(rows.map((r) => r.flag).sort()).toEqual(SERVE_OPTIONS.map((o) => `\`${longFlag(o.flag)}\``).sort());
    for (const option of SERVE_OPTIONS) {
      const row = rows.find((r) => r.flag === `\`${longFlag(option.flag)}\``)!;
      expect(row.env, option.flag).toBe(`\`${option.env}\``);
      // A declared default is the cell itself; an option without one says what happens instead.
      if (option.default !== undefined) expect(row.defaultValue, option.flag).toBe(option.default);
      else expect(row.defaultValue, option.flag).not.toBe('');
    }
  });

  it('each row names the counterpart of its option, or says CLI only', () => {
    for (const option of SERVE_OPTIONS) {
      const row = rows.find((r) => r.flag === `\`${longFlag(option.flag)}\``)!;
      const counterpart = COUNTERPARTS[option.key];
      if (counterpart === null) expect(row.counterpart, option.flag).toMatch(/^CLI only\b/);
      else expect(row.counterpart, option.flag).toContain(`\`${counterpart}\``);
    }
  });

  it('the grouped options do what their flags do', async () => {
    const em = createEmulator({
      seed: 'options',
      publicUrl: 'https://emulator.example.test/',
      clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' },
      webhooks: { urlPolicy: 'strict', signatureClock: 'emulated', timeoutMs: 1234 },
    });
    const ws = em.emulator.defaultWorkspace;
    expect(em.emulator.seed).toBe('options');
    expect(em.emulator.publicUrl).toBe('https://emulator.example.test');
    expect(ws.clock.mode).toBe('frozen');
    expect(await em.clock.now()).toBe('2026-10-05T09:00:00.000Z');
    expect(ws.delivery).toMatchObject({ urlPolicy: 'strict', signatureClock: 'emulated', timeoutMs: 1234 });
    await em.close();
  });
});

describe('parseJournalLimit (the --journal-limit and EMULATOR_JOURNAL_LIMIT format)', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['1000', 1000],
    ['100000', 100_000],
  ])('reads %j', (text, limit) => {
    expect(parseJournalLimit(text)).toBe(limit);
  });

  it.each(['', ' ', '-1', '1.5', '100001', 'many', '1e6', 'NaN'])('refuses %j', (text) => {
    expect(() => parseJournalLimit(text)).toThrow(`not a valid journal limit (0 to 100000): ${text}`);
  });
});
