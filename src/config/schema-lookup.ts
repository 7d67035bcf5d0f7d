/**
 * Finds the part of the zod schema that a config path points at, so a message can say what
 * is allowed there (the keys of a mapping, the range of a number) rather than only what
 * went wrong.
 */
import { z } from 'zod';
import type { ConfigPath } from './config-issue.ts';
import { valueAt } from './data-path.ts';

/**
 * The schema at `path`, looking through defaults and optionals (any key of a record, such as
 * a workspace name under `sources`, leads to its value schema); a discriminated union
 * (`destination`) picks the option named by the data's discriminator (`type`).
 */
export function schemaAt(root: z.ZodType, path: ConfigPath, data: unknown): z.ZodType | undefined {
  let schema: z.ZodType | undefined = unwrap(root, [], data);
  for (let i = 0; i < path.length && schema; i++) {
    const segment = path[i]!;
    if (schema instanceof z.ZodObject) schema = schema.shape[String(segment)] as z.ZodType | undefined;
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else if (schema instanceof z.ZodRecord) schema = schema.valueType as z.ZodType;
    else return undefined;
    if (schema) schema = unwrap(schema, path.slice(0, i + 1), data);
  }
  return schema;
}

/** The keys a mapping at `path` allows, in schema order. */
export function allowedKeysAt(root: z.ZodType, path: ConfigPath, data: unknown): string[] {
  const schema = schemaAt(root, path, data);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function unwrap(schema: z.ZodType, path: ConfigPath, data: unknown): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (;;) {
    if (current instanceof z.ZodDefault || current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodDiscriminatedUnion) {
      current = pickOption(current, valueAt(data, path));
    } else {
      return current;
    }
  }
}

function pickOption(union: z.ZodDiscriminatedUnion, value: unknown): z.ZodType | undefined {
  const discriminator = union.def.discriminator;
  const tag = valueAt(value, [discriminator]);
  return (union.options as z.ZodType[]).find((option) => {
    const literal = option instanceof z.ZodObject ? option.shape[discriminator] : undefined;
    return literal instanceof z.ZodLiteral && literal.values.has(tag as never);
  });
}
