import { Type } from '../core/schema.js';

/**
 * The CTRF test report the control API answers (the scenario report with format=ctrf): the
 * fields this emulator writes (src/core/ctrf.ts), for OpenAPI. The reference schema allows more.
 */
const Count = Type.Integer({ minimum: 0 });
const EpochMs = Type.Integer({ description: 'epoch milliseconds on the workspace clock' });

const CtrfTest = Type.Object({
  name: Type.String(),
  status: Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('pending'), Type.Literal('skipped'), Type.Literal('other')]),
  duration: Type.Integer({ minimum: 0, description: 'milliseconds; 0 when not measured' }),
  message: Type.Optional(Type.String({ description: 'why it failed, was skipped or is pending' })),
  trace: Type.Optional(Type.String({ description: 'the details of a failure' })),
  suite: Type.Array(Type.String(), { minItems: 1, description: 'the suite, then the group (the expectation kind)' }),
});

export const CtrfReportSchema = Type.Object(
  {
    reportFormat: Type.Literal('CTRF'),
    specVersion: Type.String({ description: 'the CTRF specification version' }),
    results: Type.Object({
      tool: Type.Object({ name: Type.String(), version: Type.String() }),
      summary: Type.Object({
        tests: Count, passed: Count, failed: Count, pending: Count, skipped: Count, other: Count, start: EpochMs, stop: EpochMs,
      }),
      tests: Type.Array(CtrfTest),
    }),
  },
  { title: 'CtrfReport', description: 'a CTRF (Common Test Report Format) report: a test per check, a summary counting each status' },
);
