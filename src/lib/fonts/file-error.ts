/** Every refusal of an uploaded font file is a 400 on the field `file`. */
import { badRequest } from '../errors.js';

export const FONT_FILE_FIELD = 'file';

export const fontFileError = (reason: string) =>
  badRequest(`Invalid value for "${FONT_FILE_FIELD}": ${reason}`, FONT_FILE_FIELD);
