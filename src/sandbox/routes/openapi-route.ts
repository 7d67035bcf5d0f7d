/**
 * `GET /public/v2/openapi.json` (spec 4.9): the bundled `schemas/openapi.json`, served as is.
 * Public (no key, no rate limit): it is the contract a client needs before it has a key.
 */
import { readFile } from 'node:fs/promises';
import { ApiError } from '../http/api-error.ts';
import type { RouteModule } from '../router.ts';

// From src/sandbox/routes and from dist/src/sandbox/routes after a build.
const CANDIDATES = ['../../../schemas/openapi.json', '../../../../schemas/openapi.json'].map((p) => new URL(p, import.meta.url));

export const openapiRoute: RouteModule = () => [
  {
    name: 'openapi',
    method: 'GET',
    path: '/public/v2/openapi.json',
    access: 'public',
    async handle() {
      for (const file of CANDIDATES) {
        try {
          return { status: 200, body: JSON.parse(await readFile(file, 'utf8')), raw: true };
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
      throw new ApiError('not_found', 'The OpenAPI document (schemas/openapi.json) is not bundled with this build.');
    },
  },
];
