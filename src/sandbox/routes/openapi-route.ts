/**
 * `GET /public/v2/openapi.json` (spec 4.9): the bundled `schemas/openapi.json`, served as is.
 * A read like any other: "every read requires authentication" (spec 4) and every V2
 * operation counts against the workspace's rate limit (spec 8).
 */
import { readFile } from 'node:fs/promises';
import { ApiError } from '../http/api-error.ts';
import type { RouteModule } from '../router.ts';

// From src/sandbox/routes and from dist/src/sandbox/routes after a build.
const CANDIDATES = ['../../../schemas/openapi.json', '../../../../schemas/openapi.json'].map(
  (p) => new URL(p, import.meta.url),
);

export const openapiRoute: RouteModule = () => [
  {
    name: 'openapi',
    method: 'GET',
    path: '/public/v2/openapi.json',
    access: 'read',
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
