import { Option, type Command } from 'commander';
import { plainSchema, type Static, type TSchema } from '../core/schema.js';
import { UsageError } from '../client/http.js';

/**
 * A command's flags made from the body schema its request sends: `latency_ms` is
 * `--latency-ms <latency_ms>`, described and, for a closed set, limited as the schema says. The
 * server still checks the whole body, so a flag's value is refused there with the same words as
 * over HTTP (exit 1).
 */
interface PropertySchema {
  type?: string;
  description?: string;
  enum?: unknown[];
  anyOf?: { const?: unknown }[];
}

/** Properties whose flag would clash with the client's own (`--url` names the emulator, `--key` is the caller's key). */
const RENAMED: Record<string, string> = { url: 'target_url', key: 'with_key' };
const flagName = (name: string): string => RENAMED[name] ?? name;
const flagOf = (name: string): string => `--${flagName(name).replaceAll('_', '-')}`;
const camel = (name: string): string => flagName(name).replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function propertiesOf(schema: TSchema): Record<string, PropertySchema> {
  return ((plainSchema(schema) as { properties?: Record<string, PropertySchema> }).properties ?? {});
}

/** The values a property takes from a closed set, if it is one. */
function choicesOf(p: PropertySchema): string[] | undefined {
  const values = p.enum ?? p.anyOf?.map((b) => b.const);
  return values?.every((v) => typeof v === 'string') ? (values as string[]) : undefined;
}

/** Adds a flag per body property, except those the command takes as arguments. */
export function bodyOptions(cmd: Command, schema: TSchema, positional: readonly string[] = []): Command {
  for (const [name, p] of Object.entries(propertiesOf(schema))) {
    if (positional.includes(name)) continue;
    const option = new Option(`${flagOf(name)} <${name}>`, `${p.description ?? name}${RENAMED[name] ? ` (the field ${name})` : ''}`);
    const choices = choicesOf(p);
    if (choices) option.choices(choices);
    cmd.addOption(option);
  }
  return cmd;
}

/**
 * The body the flags given make: numbers as numbers, the rest as written, flags not given left
 * out. Typed as the schema's body because the server checks it against that schema (a wrong
 * value is its 422, exit 1).
 */
export function bodyFrom<S extends TSchema>(schema: S, opts: Record<string, unknown>, positional: Record<string, unknown> = {}): Static<S> {
  const body: Record<string, unknown> = { ...positional };
  for (const [name, p] of Object.entries(propertiesOf(schema))) {
    const raw = opts[camel(name)];
    if (typeof raw !== 'string') continue;
    if (p.type === 'integer' || p.type === 'number') {
      // Decimal digits only, as the emulator reads its integers: Number() alone takes 0x10 and 1e3.
      if (!/^-?\d+(\.\d+)?$/.test(raw.trim())) throw new UsageError(`${flagOf(name)} must be a number: ${raw}`);
      body[name] = Number(raw);
    } else body[name] = raw;
  }
  return body as Static<S>;
}
