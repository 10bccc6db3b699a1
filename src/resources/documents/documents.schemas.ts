import { Type } from '../../core/schema.js';
import { pageQuery } from '../common.schemas.js';

export const ListDocumentsQuery = Type.Object({ ...pageQuery() }, { additionalProperties: false });
export const DocumentParams = Type.Object({ id: Type.String(), documentId: Type.String() });
