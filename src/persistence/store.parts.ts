import type { ErrorDetail } from '../core/errors.js';
import { Type, type TSchema } from '../core/schema.js';
import { collectionNames, createStore, snapshotStore, type SnapshotStore } from '../core/store.js';
import type { WorkspacePart } from '../core/workspace.js';
import { STORE_LAYOUT } from '../resources/collections.js';
import { RECORD_SCHEMAS } from './snapshot.records.js';

/** The store's collections, as the resources declare them. */
const COLLECTIONS = collectionNames(STORE_LAYOUT);

/** The field a collection is indexed by. */
const idFieldOf = (collection: keyof typeof STORE_LAYOUT): string => STORE_LAYOUT[collection];

/** Every field later requests read is checked (snapshot.records.ts): a restore cannot leave a record that breaks them. */
function recordSchema(name: string): TSchema {
  const schema = RECORD_SCHEMAS[name];
  if (!schema) throw new Error(`no snapshot schema for the store collection ${name}`);
  return schema;
}

const StoreSchema = Type.Object(
  {
    ...Object.fromEntries(COLLECTIONS.map((name) => [name, Type.Array(recordSchema(name))])),
    sequence: Type.Integer({ minimum: 1, description: 'the next record position' }),
  },
  { additionalProperties: false },
);

/** Each collection's ids are unique: a second record with an id would vanish into the first. */
function duplicateIds(s: SnapshotStore): ErrorDetail[] {
  const mistakes: ErrorDetail[] = [];
  for (const name of COLLECTIONS) {
    const field = idFieldOf(name);
    const seen = new Set<string>();
    (s[name] as unknown as Record<string, string>[]).forEach((r, i) => {
      const id = r[field]!;
      if (seen.has(id)) mistakes.push({ path: `store.${name}[${i}].${field}`, message: `${id} appears twice` });
      seen.add(id);
    });
  }
  return mistakes;
}

/**
 * The references every request follows without a check of its own (a key to its organization
 * and user, a record to its organization): one naming nothing would fail each later request
 * that reads it, so the snapshot is refused instead.
 */
function danglingReferences(s: SnapshotStore): ErrorDetail[] {
  const mistakes: ErrorDetail[] = [];
  const orgs = new Set(s.organizations.map((o) => o.id));
  const users = new Set(s.users.map((u) => u.id));
  const expectIn = (ids: Set<string>, what: string, id: string | null, path: string) => {
    if (id !== null && !ids.has(id)) mistakes.push({ path, message: `names ${what} ${id}, which the snapshot does not hold` });
  };
  s.organizations.forEach((o, i) => o.admitted_by.forEach((a, j) => expectIn(orgs, 'the organization', a.organization_id, `store.organizations[${i}].admitted_by[${j}].organization_id`)));
  s.users.forEach((u, i) => expectIn(orgs, 'the organization', u.organization_id, `store.users[${i}].organization_id`));
  s.keys.forEach((k, i) => {
    expectIn(orgs, 'the organization', k.organization_id, `store.keys[${i}].organization_id`);
    expectIn(users, 'the user', k.user_id, `store.keys[${i}].user_id`);
  });
  for (const name of ['onboardings', 'employees', 'events', 'webhooks', 'reviewSessions', 'reviewerLinks'] as const) {
    (s[name] as { organization_id: string; partner_id?: string | null }[]).forEach((r, i) => {
      expectIn(orgs, 'the organization', r.organization_id, `store.${name}[${i}].organization_id`);
      if (r.partner_id !== undefined) expectIn(orgs, 'the partner', r.partner_id, `store.${name}[${i}].partner_id`);
    });
  }
  return mistakes;
}

/** The store: every collection of the recipe's layout in its order, then the record sequence. */
export const STORE_PART: WorkspacePart<'store'> = {
  name: 'store',
  create: (ws) => createStore(ws.recipe.collections),
  save: (store) => snapshotStore(store) as SnapshotStore,
  load(saved, ws) {
    const store = createStore(ws.recipe.collections);
    for (const name of COLLECTIONS) {
      const collection = store[name] as unknown as { put(r: unknown): unknown };
      for (const r of saved[name]) collection.put(r);
    }
    store.sequence.next = saved.sequence;
    return store;
  },
  schema: StoreSchema as TSchema<SnapshotStore>,
  check: (saved) => [...duplicateIds(saved), ...danglingReferences(saved)],
};
