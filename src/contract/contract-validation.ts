/**
 * Which records a run accepts (docs/served-contract.md#validation): those the bundled contract
 * allows (its zod schemas, the fast path every record takes) or, failing that, those the
 * document in force allows. A record only the document in force allows passes as the API sent
 * it (its typed columns as `typedPart` says); one neither allows is rejected with the bundled
 * contract's reasons, as before. Validators
 * of the document in force are compiled once per run, and only when a record first needs one.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import type { StreamName } from '../streams/registry.ts';
import type { ContractDocument } from './contract-document.ts';
import type { JsonSchema } from './json-schema.ts';
import { linearRegExp } from './linear-regexp.ts';
import { metaSchema, recordSchema } from './stream-contracts.ts';

/** What a schema describes: a stream's records (a snapshot's `data`), or its response `meta`. */
export type ContractPart = 'record' | 'meta';

export class ContractValidation {
  readonly #document: ContractDocument | undefined;
  readonly #schemas = new Map<string, z.ZodType>();
  readonly #validators = new Map<string, ValidateFunction | undefined>();
  #ajv: Ajv2020 | undefined;

  /**
   * @param document the document in force when it differs from the bundled contract; undefined
   *   when the bundled contract is in force (records are checked by the bundled schemas alone)
   */
  constructor(document: ContractDocument | undefined) {
    this.#document = document;
  }

  /**
   * The schema this run checks a stream's records (or meta) with: `bundled` itself when the
   * bundled contract is in force, else `bundled` or the document in force.
   */
  schema<T>(stream: StreamName, part: ContractPart, bundled: z.ZodType<T>): z.ZodType<T> {
    if (this.#document === undefined) return bundled;
    const key = `${stream}:${part}`;
    let schema = this.#schemas.get(key);
    if (schema === undefined) {
      schema = z.unknown().transform((value, context) => {
        const parsed = bundled.safeParse(value);
        if (parsed.success) return parsed.data;
        const loadable = this.#allows(key, stream, part, value) ? typedPart(bundled, value, parsed.error) : undefined;
        if (loadable !== undefined) return loadable as T;
        for (const issue of parsed.error.issues) context.addIssue({ ...issue } as z.core.$ZodRawIssue);
        return z.NEVER;
      });
      this.#schemas.set(key, schema);
    }
    return schema as z.ZodType<T>;
  }

  #allows(key: string, stream: StreamName, part: ContractPart, value: unknown): boolean {
    if (!this.#validators.has(key)) this.#validators.set(key, this.#compile(stream, part));
    return this.#validators.get(key)?.(value) ?? false;
  }

  /** Undefined when the document declares nothing to check against, or its schema does not compile. */
  #compile(stream: StreamName, part: ContractPart): ValidateFunction | undefined {
    const document = this.#document!;
    const schema: JsonSchema | undefined =
      part === 'record' ? recordSchema(document, stream) : metaSchema(document, stream);
    if (schema === undefined) return undefined;
    // Formats are not checked (the bundled contract's patterns are); keywords ajv does not know are
    // annotations; patterns run in linear time.
    this.#ajv ??= new Ajv2020({
      strict: false,
      validateFormats: false,
      allErrors: false,
      code: { regExp: linearRegExp },
    });
    try {
      return this.#ajv.compile(typeof schema === 'boolean' ? schema : { ...schema });
    } catch {
      return undefined;
    }
  }
}

/**
 * Issues about a value the bundled contract does not list but whose type it expects: a reason
 * value or a key of a reason map. Such a value is loaded as sent (it lands in a JSON or text
 * column); any other value the bundled contract rejects is left out of the typed row.
 */
const LISTED_VALUE_ISSUES: ReadonlySet<string> = new Set(['invalid_value', 'unrecognized_keys']);

/** A copy of `value` with null at `path`, copying only the objects and arrays on the way. */
function nulledAt(value: unknown, path: readonly PropertyKey[]): unknown {
  if (path.length === 0) return null;
  const [head, ...rest] = path;
  if (typeof value !== 'object' || value === null) return value;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<PropertyKey, unknown>;
  copy[head as string] = nulledAt(copy[head as string], rest);
  return copy;
}

/**
 * The typed part of a record only the document in force allows: what the stream's columns get
 * (`_raw` keeps the record whole). A value of another type than the bundled contract's (a
 * type change) is null in its old column (schema evolution gives it a column of its own,
 * docs/served-contract.md#schema-evolution); a reason value or key the bundled contract does not
 * list is kept. Undefined when that leaves a record the columns still cannot hold (a required
 * field changed type): it is rejected as before.
 */
function typedPart<T>(bundled: z.ZodType<T>, value: unknown, error: z.ZodError): unknown {
  let typed = value;
  for (const issue of error.issues)
    if (!LISTED_VALUE_ISSUES.has(issue.code)) {
      if (issue.path.length === 0) return undefined;
      typed = nulledAt(typed, issue.path);
    }
  const again = bundled.safeParse(typed);
  if (again.success) return again.data;
  return again.error.issues.every((issue) => LISTED_VALUE_ISSUES.has(issue.code)) ? typed : undefined;
}

/** The validation of a run whose document in force is the bundled contract. */
export const BUNDLED_VALIDATION = new ContractValidation(undefined);
