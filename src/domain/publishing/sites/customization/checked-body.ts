/** A customization body (a PUT or a site space's PATCH) checked against its public schema. */
import { checkHeaderConditions } from './conditions.js';
import { schemaError } from './errors.js';
import { prune, validatorFor, type SchemaName, type Shape } from './schema.js';

/** The body with only the fields `shape` knows, or a 400 naming the first offending field (its header links' conditions parsed too). */
export function checkedBody(name: SchemaName, input: unknown, shape: Shape): Record<string, unknown> {
  const validate = validatorFor(name);
  if (!validate(input)) throw schemaError(validate.errors);
  const body = input as Record<string, unknown>;
  checkHeaderConditions(body.header);
  return prune(body, shape);
}
