import type { JsonSchema } from '../core/schema.js';
import type { ClientCall, ControlRoute } from '../operations/control-row.js';

/**
 * What a tool promises beyond its input: the schema of its answers (`outputSchema`) and the
 * hints on what its actions do to the workspace (`annotations`), both read off the control rows,
 * so they follow the rows as the input schemas do.
 *
 * An answer is `{action, result}`: the protocol wants an object, and an action may answer a
 * list or a string (`keys`, `clock.now`), so the method's answer is `result` and `action` says
 * which method ran (the client name, also when the call named it by an allowed action's name).
 */

/** A schema longer than this is shown by its type and title only: the tool list is read whole. The answer still is the row's. */
const OUTPUT_SCHEMA_TEXT_LIMIT = 3_000;

/** The schema of a method's answer, as its row declares it: its first 2xx answer with a schema (`pick`: that property of it). */
function answerSchema(row: ControlRoute<never>, call: ClientCall): unknown {
  const status = Object.keys(row.responses).map(Number).filter((s) => s >= 200 && s < 300 && row.responses[s]?.schema !== undefined).sort()[0];
  const schema = status === undefined ? undefined : row.responses[status]!.schema;
  if (schema === undefined) return {};
  if (call.pick === undefined) return schema;
  return (schema as { properties?: Record<string, unknown> }).properties?.[call.pick] ?? {};
}

/** The type keyword of a schema, when it has one. */
const typeOf = (schema: JsonSchema): JsonSchema => (typeof schema.type === 'string' || Array.isArray(schema.type) ? { type: schema.type } : {});

/**
 * Plain JSON, or when too long to read its outline: its type and title, and of an object its
 * required properties and each property's type (see the openapi resource for the whole).
 */
function shownAnswer(schema: unknown): JsonSchema {
  const plain = JSON.parse(JSON.stringify(schema ?? {})) as JsonSchema;
  if (JSON.stringify(plain).length <= OUTPUT_SCHEMA_TEXT_LIMIT) return plain;
  const title = typeof plain.title === 'string' ? plain.title : undefined;
  const properties = plain.properties as Record<string, JsonSchema> | undefined;
  return {
    ...typeOf(plain),
    ...(title ? { title } : {}),
    description: `${title ?? 'a large document'}: its outline; the full schema is in the openapi resource`,
    ...(properties ? { properties: Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, typeOf(p)])) } : {}),
    ...(Array.isArray(plain.required) ? { required: plain.required } : {}),
  };
}

/** A type, not an interface: the SDK's tool type takes any further keyword, which an interface cannot be assigned to. */
export type ToolOutputSchema = {
  type: 'object';
  properties: { action: JsonSchema; result: JsonSchema };
  required: ['action', 'result'];
  additionalProperties: false;
  /** By action, when the actions answer differently: each branch names its actions and their answer. */
  anyOf?: JsonSchema[];
};

/** A tool's outputSchema: `{action, result}`, `result` held to the answer of the action named (actions answering alike share a branch). */
export function outputSchemaOf(actions: readonly { name: string; row: ControlRoute<never>; call: ClientCall }[]): ToolOutputSchema {
  const byAnswer = new Map<string, { names: string[]; answer: JsonSchema }>();
  for (const a of actions) {
    const answer = shownAnswer(answerSchema(a.row, a.call));
    const key = JSON.stringify(answer);
    (byAnswer.get(key) ?? byAnswer.set(key, { names: [], answer }).get(key)!).names.push(a.name);
  }
  const groups = [...byAnswer.values()];
  const action = { type: 'string', enum: actions.map((a) => a.name), description: 'the method that ran' };
  const base = { type: 'object' as const, required: ['action', 'result'] as ['action', 'result'], additionalProperties: false as const };
  if (groups.length === 1) return { ...base, properties: { action, result: groups[0]!.answer } };
  return {
    ...base,
    properties: { action, result: { description: "the method's answer, its schema by action (anyOf)" } },
    anyOf: groups.map((g) => ({ properties: { action: { enum: g.names }, result: g.answer } })),
  };
}

/** What one action does to the workspace, by its row: GET reads; DELETE, PUT (a whole replaced) and a reset destroy; POST and PATCH may not be repeated alike. */
export interface ActionEffect {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
}

export function effectOf(row: ControlRoute<never>): ActionEffect {
  const readOnly = row.method === 'GET';
  const destructive = row.method === 'DELETE' || row.method === 'PUT' || row.path.endsWith('/reset');
  return { readOnly, destructive, idempotent: row.method !== 'POST' && row.method !== 'PATCH' };
}

export type ToolAnnotations = {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
};

/** A tool's hints, the conservative ones of its actions: read-only if all are, destructive if any is, idempotent if all are. */
export function annotationsOf(effects: readonly ActionEffect[]): ToolAnnotations {
  return {
    readOnlyHint: effects.every((e) => e.readOnly),
    destructiveHint: effects.some((e) => e.destructive),
    idempotentHint: effects.every((e) => e.idempotent),
  };
}

/** How an action's line in a tool's description marks what it does: nothing for a read. */
export const effectMark = (e: ActionEffect): string => (e.destructive ? ' [destructive]' : e.readOnly ? '' : ' [writes]');
