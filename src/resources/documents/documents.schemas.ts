import { Type } from '../../core/schema.js';
import { PageQuery } from '../common.schemas.js';

export const ListDocumentsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const DocumentParams = Type.Object({ id: Type.String(), documentId: Type.String() });
