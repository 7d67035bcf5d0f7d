/**
 * A contract document is read without leaving it: a `$ref` to a URL or a file is never
 * followed (that field is untyped JSON), a `$ref` cycle ends, and a document whose references
 * fan out is refused before it is expanded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../schemas/openapi.ts';
import { readContractDocument } from '../../src/contract/contract-document.ts';
import { declaredFields } from '../../src/contract/declared-fields.ts';
import { fieldType } from '../../src/contract/field-type.ts';

type Json = Record<string, any>;

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-contract-'));
let listener: http.Server;
const requests: string[] = [];
beforeAll(async () => {
  listener = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ type: 'integer' }));
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const mentionType = (document: Awaited<ReturnType<typeof readContractDocument>>, field: string) =>
  declaredFields(document, 'mentions').find((f) => f.name === field)!;

describe('readContractDocument', () => {
  it('never fetches a $ref on another host nor reads a $ref file: those fields are untyped JSON', async () => {
    // Either one, if read, would type its field as an integer.
    const file = path.join(dir, 'integer.json');
    writeFileSync(file, JSON.stringify({ type: 'integer' }));
    const { port } = listener.address() as AddressInfo;
    const served: Json = structuredClone(buildOpenApiDocument());
    served.components.schemas.Mention.properties.sentence_text = { $ref: `http://127.0.0.1:${port}/integer.json` };
    served.components.schemas.Mention.properties.mention_spans = { $ref: `file://${file}` };
    served.components.schemas.Mention.properties.sentiment = { $ref: file };

    const document = await readContractDocument(served);

    expect(requests).toEqual([]);
    for (const field of ['sentence_text', 'mention_spans', 'sentiment'])
      expect([field, mentionType(document, field).schema]).toEqual([field, {}]);
    expect(fieldType(mentionType(document, 'sentence_text').schema)).toBe('json');
    // Everything inside the document still resolves.
    expect(fieldType(mentionType(document, 'observed_at').schema)).toBe('timestamp');
  });

  it('ends a $ref cycle: the field on it is untyped JSON, the rest is read', async () => {
    const served: Json = structuredClone(buildOpenApiDocument());
    served.components.schemas.Loop = { $ref: '#/components/schemas/LoopBack' };
    served.components.schemas.LoopBack = { $ref: '#/components/schemas/Loop' };
    served.components.schemas.Mention.properties.sentence_text = { $ref: '#/components/schemas/Loop' };
    served.components.schemas.Mention.properties.self = { $ref: '#/components/schemas/Mention' };

    const document = await readContractDocument(served);

    expect(mentionType(document, 'sentence_text').schema).toEqual({});
    expect(mentionType(document, 'self').schema).toEqual({});
    expect(declaredFields(document, 'mentions')).toHaveLength(11);
  });

  it('refuses a document whose references fan out past 200,000 nodes, without expanding it', async () => {
    const served: Json = structuredClone(buildOpenApiDocument());
    for (let level = 0; level < 40; level++)
      served.components.schemas[`Fan${level}`] = {
        type: 'object',
        properties: {
          left: { $ref: `#/components/schemas/Fan${level + 1}` },
          right: { $ref: `#/components/schemas/Fan${level + 1}` },
        },
      };
    served.components.schemas.Fan40 = { type: 'string' };
    served.components.schemas.Mention.properties.fan = { $ref: '#/components/schemas/Fan0' };

    await expect(readContractDocument(served)).rejects.toThrow('it dereferences to more than 200,000 nodes');
  });

  it('cuts nesting past 64 levels to untyped JSON', async () => {
    const served: Json = structuredClone(buildOpenApiDocument());
    let deep: Json = { type: 'string' };
    for (let level = 0; level < 100; level++) deep = { type: 'object', properties: { next: deep } };
    served.components.schemas.Mention.properties.deep = deep;

    const document = await readContractDocument(served);
    let node: unknown = mentionType(document, 'deep').schema;
    let depth = 0;
    while ((node as Json).properties?.next !== undefined) {
      node = (node as Json).properties.next;
      depth++;
    }
    // Where the tree is cut, the object declares nothing more: its content is untyped JSON.
    expect(Object.keys((node as Json).properties ?? {})).toEqual([]);
    expect(depth).toBeLessThan(32);
  });

  it('says why a document is not an OpenAPI 3.x document', async () => {
    await expect(readContractDocument({ swagger: '2.0', paths: {} })).rejects.toThrow(
      'it is not an OpenAPI 3.x document (openapi: missing)',
    );
    await expect(readContractDocument({ openapi: '2.0', paths: {} })).rejects.toThrow(
      'it is not an OpenAPI 3.x document (openapi: "2.0")',
    );
    await expect(readContractDocument([1])).rejects.toThrow('it is not a JSON object');
  });
});
