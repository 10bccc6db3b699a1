/** A JSON object of the document, read as far as a test needs. */
export type Json = Record<string, unknown>;

/**
 * The published document with each operation's request body read through its `$ref` (a titled
 * body stands once under components.requestBodies), so a test reads `op.requestBody.content`
 * whether the body is named or written inline.
 */
export function withBodiesInline<D>(doc: D): D {
  const d = doc as { paths: Record<string, Record<string, { requestBody?: { $ref?: string } }>>; components: { requestBodies?: Record<string, unknown> } };
  for (const item of Object.values(d.paths)) {
    for (const op of Object.values(item)) {
      const ref = op.requestBody?.$ref;
      if (ref !== undefined) op.requestBody = d.components.requestBodies?.[ref.replace('#/components/requestBodies/', '')] as typeof op.requestBody;
    }
  }
  return doc;
}
