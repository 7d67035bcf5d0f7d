/**
 * `GET /public/v2/openapi.json` (spec 4.9): the bundled contract, or what a served-contract
 * variant serves instead (served-contract.ts). A read like any other: "every read requires
 * authentication" (spec 4) and every V2 operation counts against the workspace's rate limit
 * (spec 8).
 */
import { ApiError } from '../http/api-error.ts';
import type { RouteModule } from '../router.ts';
import { servedContractReply } from '../served-contract.ts';

export const openapiRoute: RouteModule = (env) => [
  {
    name: 'openapi',
    method: 'GET',
    path: '/public/v2/openapi.json',
    access: 'read',
    handle() {
      if (env.variants.has('contract_unavailable'))
        throw new ApiError('internal_error', 'The contract could not be rendered.');
      return servedContractReply(env.variants);
    },
  },
];
