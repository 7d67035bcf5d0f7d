/**
 * Which records a run accepts (docs/served-contract.md#validation): those the bundled contract
 * allows (its zod schemas, the fast path every record takes) or, failing that, those the
 * document in force allows. A record only the document in force allows passes as the API sent
 * it; one neither allows is rejected with the bundled contract's reasons, as before. Validators
 * of the document in force are compiled once per run, and only when a record first needs one.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import type { StreamName } from '../streams/registry.ts';
import type { ContractDocument } from './contract-document.ts';
import type { JsonSchema } from './json-schema.ts';
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
        if (this.#allows(key, stream, part, value)) return value as T;
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
    // Formats are not checked (the bundled contract's patterns are); keywords ajv does not know are annotations.
    this.#ajv ??= new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
    try {
      return this.#ajv.compile(typeof schema === 'boolean' ? schema : { ...schema });
    } catch {
      return undefined;
    }
  }
}

/** The validation of a run whose document in force is the bundled contract. */
export const BUNDLED_VALIDATION = new ContractValidation(undefined);
