import { describe, expect, it } from 'vitest';
import { Type } from '../../src/core/schema.js';
import { compile } from '../../src/core/validation.js';

describe('messages of a union that matched no branch', () => {
  const mistakesOf = (schema: Parameters<typeof compile>[0], value: unknown) => {
    const result = compile(schema)(value);
    return result.ok ? [] : result.mistakes.map((m) => m.message);
  };

  it('name each type once, whatever number of branches share it', () => {
    const delay = Type.Object({ after: Type.Union([Type.String({ pattern: '^\\d+m$' }), Type.String({ minLength: 5 }), Type.Number()]) });
    expect(mistakesOf(delay, { after: true })).toContain('must be a string or a number');
  });

  it('list the values of a union of literals', () => {
    const choice = Type.Object({ to: Type.Union([Type.Literal('employee'), Type.Literal('manager')]) });
    expect(mistakesOf(choice, { to: 'boss' })).toContain('must be one of: employee, manager');
  });
});
