import { describe, expect, it } from 'vitest';
import { Type } from '../../src/core/schema.js';
import { SchemaPublisher } from '../../src/http/openapi.js';

describe('SchemaPublisher: titled schemas become components', () => {
  const Item = Type.Object({ id: Type.String(), title: Type.String() }, { title: 'Item' });

  it('writes a titled schema once and refers to it wherever it is used, nested uses included', () => {
    const p = new SchemaPublisher();
    const list = p.ref(Type.Object({ data: Type.Array(Item), first: Type.Union([Item, Type.Null()]) }, { title: 'ItemList' }));
    const single = p.ref(Item);
    expect(list).toEqual({ $ref: '#/components/schemas/ItemList' });
    expect(single).toEqual({ $ref: '#/components/schemas/Item' });
    expect(p.components.ItemList!.properties).toEqual({
      data: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
      first: { anyOf: [{ $ref: '#/components/schemas/Item' }, { type: 'null' }] },
    });
    // A property called title is a field, not a name.
    expect(p.components.Item).toEqual({ title: 'Item', type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } }, required: ['id', 'title'] });
    expect(Object.keys(p.components).sort()).toEqual(['Item', 'ItemList']);
  });

  it('refuses two different schemas with one title, and a title that cannot be a name', () => {
    const p = new SchemaPublisher();
    p.ref(Item);
    p.ref(Type.Object({ id: Type.String(), title: Type.String() }, { title: 'Item' })); // equal: fine
    expect(() => p.ref(Type.Object({ id: Type.Integer() }, { title: 'Item' }))).toThrow(/two different schemas are titled Item/);
    expect(() => new SchemaPublisher().ref(Type.String({ title: 'An item' }))).toThrow(/not a component name/);
  });

  it('publishes a union of string literals as enum, other unions as they are', () => {
    const p = new SchemaPublisher();
    const literals = Type.Union([Type.Literal('a'), Type.Literal('b')], { description: 'one of two' });
    expect(p.ref(literals)).toEqual({ type: 'string', enum: ['a', 'b'], description: 'one of two' });
    const mixed = Type.Union([Type.Literal('never'), Type.Number()]);
    expect(p.ref(mixed)).toEqual({ anyOf: [{ const: 'never', type: 'string' }, { type: 'number' }] });
  });

  it('maps a discriminator from each branch\'s constant to its component', () => {
    const p = new SchemaPublisher();
    const cat = Type.Object({ kind: Type.Literal('cat') }, { title: 'Cat' });
    const dog = Type.Object({ kind: Type.Literal('dog') }, { title: 'Dog' });
    p.ref(Type.Unsafe({ title: 'Pet', oneOf: [cat, dog], discriminator: { propertyName: 'kind' } }));
    expect(p.components.Pet).toEqual({
      title: 'Pet',
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
      discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } },
    });
  });
});
