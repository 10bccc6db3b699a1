import { Type } from '../core/schema.js';
import { Literals } from '../resources/common.schemas.js';
import { DETAIL_FIELDS } from '../resources/onboardings/onboardings.employee-form.js';

/** GET /_emulator/test-values: the employee form's test values (src/resources/onboardings/onboardings.test-values.ts). */
const Field = Literals(DETAIL_FIELDS);
const Text = Type.String();
const byField = <T extends Parameters<typeof Type.Object>[0][string]>(value: T) => Type.Object(Object.fromEntries(DETAIL_FIELDS.map((f) => [f, value])));

const TestValue = Type.Object({ value: Text, note: Text }, { title: 'TestValue' });
const FieldMistake = Type.Object({ field: Field, value: Text, note: Text, message: Type.String({ description: 'what the form says at the field' }) }, { title: 'FieldMistake' });
const TestDocument = Type.Object({ file_name: Text, content_type: Text, note: Text, base64: Text }, { title: 'TestDocument' });
const DocumentMistake = Type.Object(
  {
    file_name: Text, content_type: Text, note: Text, base64: Text,
    size: Type.Optional(Type.Integer({ description: "the file is base64's bytes padded with zeros to this many bytes" })),
    message: Type.String({ description: 'what the form says at the document' }),
  },
  { title: 'DocumentMistake' },
);

export const TestValuesSchema = Type.Object(
  {
    version: Type.Integer({ description: 'raised when an entry is renamed or removed' }),
    details: byField(Text),
    fields: byField(Type.Object({ valid: Type.Array(TestValue), invalid: Type.Array(FieldMistake) })),
    documents: Type.Object({ valid: Type.Array(TestDocument), invalid: Type.Array(DocumentMistake) }),
  },
  { title: 'TestValues' },
);
