/**
 * Fuzz of the contract reader (docs/served-contract.md#what-is-read): random documents and
 * random mutations of the bundled one, from a fixed seed, so a failure replays. Whatever the
 * document, reading it never throws (it is usable, or unusable with a one-line reason), a usable
 * one stays within the reader's bounds, and what runs do with it next (drift, declared fields,
 * the evolution plan) does not throw either. Bounded in count, and in time: past
 * `TIME_BOUND_MS` the remaining cases are left for another seed.
 */
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { bundledContract } from '../../src/contract/bundled-contract.ts';
import {
  type ContractDocument,
  MAX_CONTRACT_NODES,
  MAX_CONTRACT_TEXT,
  MAX_DESCRIPTION_LENGTH,
} from '../../src/contract/contract-document.ts';
import { contractDrift } from '../../src/contract/contract-drift.ts';
import { usableContract } from '../../src/contract/served-contract.ts';
import { declaredIn, planEvolution } from '../../src/evolution/evolution-plan.ts';
import { Rng } from '../../src/sandbox/prng.ts';
import { STREAM_TABLES } from '../../src/streams/registry.ts';

const SEED = 40;
const RANDOM_DOCUMENTS = 400;
const MUTATIONS = 400;
/** Not an assertion: where the loop stops generating, so a slow machine runs fewer cases. */
const TIME_BOUND_MS = 60_000;
/** Deepest nesting kept by the reader (docs: nesting past 64 levels is cut). */
const MAX_SCHEMA_DEPTH = 64;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const BUNDLED: Record<string, Json> = JSON.parse(JSON.stringify(buildOpenApiDocument()));
const TABLES = Object.values(STREAM_TABLES).flat();
const CREATED = new Map(TABLES.map((t) => [t.name, new Map(t.columns.map((c) => [c.name, c.type]))]));

/** Every JSON pointer of the bundled document's objects, to aim references at. */
function pointers(root: Json): string[] {
  const found: string[] = [];
  const stack: [Json, string][] = [[root, '#']];
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    found.push(at);
    for (const [key, value] of Object.entries(node))
      stack.push([value, `${at}/${encodeURIComponent(key.replaceAll('~', '~0').replaceAll('/', '~1'))}`]);
  }
  return found;
}
const POINTERS = pointers(BUNDLED);

const ODD_TEXT = ['', 'a\u0000b', '\uD800', 'x\uDC00y', "it's \\ 'quoted'", 'ü漢字😀', '\u202Eevil', '(a+)+$'];
const BROKEN_REFS = [
  '#/components/%E0%A4%A',
  '#/%',
  '#/components/schemas/Nope',
  'http://127.0.0.1:9/x',
  'file:///etc/passwd',
  '#',
  '',
  '#/paths/~2',
];

function text(rng: Rng): string {
  const roll = rng.next();
  if (roll < 0.1) return rng.pick(ODD_TEXT);
  if (roll < 0.13) return 'd'.repeat(rng.int(MAX_DESCRIPTION_LENGTH - 2, 200_000));
  return rng.token(rng.int(0, 12));
}

/** A `$ref` object aimed inside the bundled document, at a broken pointer, or out of it. */
const ref = (rng: Rng): Json => ({ $ref: rng.chance(0.7) ? rng.pick(POINTERS) : rng.pick(BROKEN_REFS) });

/** Objects `depth` levels deep around `inner`, built without recursion. */
function nested(depth: number, inner: Json): Json {
  let node = inner;
  for (let i = 0; i < depth; i++) node = { type: 'object', properties: { next: node } };
  return node;
}

function randomValue(rng: Rng, depth: number): Json {
  const roll = rng.next();
  if (depth > 6 || roll < 0.25) {
    const scalar = rng.next();
    if (scalar < 0.3) return text(rng);
    if (scalar < 0.5) return rng.int(-1e6, 1e6);
    if (scalar < 0.6) return rng.chance(0.5);
    if (scalar < 0.7) return null;
    return rng.pick(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null']);
  }
  if (roll < 0.4) return ref(rng);
  if (roll < 0.45) return nested(rng.int(1, 700), randomValue(rng, depth + 1));
  if (roll < 0.55) return Array.from({ length: rng.int(0, 4) }, () => randomValue(rng, depth + 1));
  const keys = [
    'type',
    'properties',
    'items',
    'description',
    'required',
    'anyOf',
    'allOf',
    'oneOf',
    'enum',
    'pattern',
    'nullable',
    'additionalProperties',
    'propertyNames',
    '$ref',
    rng.token(3),
  ];
  return Object.fromEntries(Array.from({ length: rng.int(0, 5) }, () => [rng.pick(keys), randomValue(rng, depth + 1)]));
}

/** A document of random paths, some of them the streams' own, and random components. */
function randomDocument(rng: Rng): Json {
  const paths = Object.fromEntries(
    Object.keys(BUNDLED.paths as Record<string, Json>)
      .filter(() => rng.chance(0.6))
      .map((path) => [path, randomValue(rng, 0)]),
  );
  return {
    openapi: rng.pick(['3.1.0', '3.0.3', '2.0', 3, '3.1.0-rc.1']),
    paths: rng.chance(0.95) ? paths : [],
    components: {
      schemas: Object.fromEntries(Array.from({ length: rng.int(0, 6) }, () => [rng.token(4), randomValue(rng, 0)])),
    },
  };
}

/** The bundled document with one to five of its objects replaced, extended or cut. */
function mutatedBundled(rng: Rng): Json {
  const document: Json = structuredClone(BUNDLED);
  for (let i = rng.int(1, 5); i > 0; i--) {
    const at = rng
      .pick(POINTERS)
      .slice(2)
      .split('/')
      .filter(Boolean)
      .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'));
    let node: Json = document;
    for (const key of at)
      node = typeof node === 'object' && node !== null ? ((node as Record<string, Json>)[key] ?? null) : null;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const key = rng.chance(0.5) ? rng.pick([...Object.keys(node), 'description']) : rng.token(5);
    const roll = rng.next();
    if (roll < 0.25) node[key] = ref(rng);
    else if (roll < 0.35) delete node[key];
    else if (roll < 0.45) node[key] = nested(rng.int(60, 700), { type: 'string' });
    else if (roll < 0.55) node.description = text(rng);
    else if (roll < 0.65) {
      // A chain of references, sometimes past what the reader follows.
      const schemas = (document.components as Record<string, Record<string, Json>>).schemas!;
      const length = rng.int(1, 150);
      for (let link = 0; link < length; link++)
        schemas[`Link${link}`] = { $ref: `#/components/schemas/Link${link + 1}` };
      schemas[`Link${length}`] = rng.chance(0.5) ? { type: 'string' } : { $ref: '#/components/schemas/Link0' };
      node[key] = { $ref: '#/components/schemas/Link0' };
    } else node[key] = randomValue(rng, 0);
  }
  return document;
}

/** Nodes, depth and the longest description of a usable document, walked without recursion. */
function measure(document: ContractDocument) {
  let nodes = 0;
  let deepest = 0;
  let longestDescription = 0;
  let unstorable = false;
  const stack: [unknown, number, string | undefined][] = [[document.paths, 1, 'paths']];
  while (stack.length > 0) {
    const [node, depth, key] = stack.pop()!;
    nodes++;
    deepest = Math.max(deepest, depth);
    if (key === 'description' && typeof node === 'string') {
      longestDescription = Math.max(longestDescription, node.length);
      unstorable ||= /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(node);
    }
    if (typeof node === 'object' && node !== null)
      for (const [k, value] of Object.entries(node))
        stack.push([value, depth + 1, Array.isArray(node) ? undefined : k]);
  }
  return { nodes, deepest, longestDescription, unstorable };
}

describe('the contract reader under random documents', () => {
  it(`never throws and stays within its bounds (seed ${SEED})`, { timeout: TIME_BOUND_MS * 3 }, async () => {
    const rng = new Rng(SEED);
    const bundled = await bundledContract();
    const started = performance.now();
    const outcomes = { usable: 0, unusable: 0 };
    for (let i = 0; i < RANDOM_DOCUMENTS + MUTATIONS && performance.now() - started < TIME_BOUND_MS; i++) {
      const body = i < RANDOM_DOCUMENTS ? randomDocument(rng) : mutatedBundled(rng);
      const read = await usableContract(body);
      if (typeof read === 'string') {
        outcomes.unusable++;
        expect(read).toMatch(/^its? [^\n]{1,300}$/);
        continue;
      }
      outcomes.usable++;
      const measured = measure(read);
      expect(measured.nodes).toBeLessThanOrEqual(MAX_CONTRACT_NODES);
      expect(measured.deepest).toBeLessThanOrEqual(MAX_SCHEMA_DEPTH);
      expect(measured.longestDescription).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH);
      expect(measured.unstorable).toBe(false);
      expect(JSON.stringify(read).length).toBeLessThanOrEqual(MAX_CONTRACT_TEXT);
      // What a run does next with a usable document.
      contractDrift(bundled, read);
      for (const plan of planEvolution(TABLES, declaredIn(read), CREATED))
        for (const { column } of plan.columns) {
          expect(column.name.length).toBeLessThanOrEqual(63);
          expect(column.description.length).toBeLessThanOrEqual(1024);
        }
    }
    // Both outcomes were met: the generators reach past the bounds and stay within them.
    expect(outcomes.usable).toBeGreaterThan(0);
    expect(outcomes.unusable).toBeGreaterThan(0);
  });
});
