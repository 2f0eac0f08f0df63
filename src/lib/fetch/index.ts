export { isPublicAddress } from './addresses.js';
export { TotalBytesExceededError } from './byte-budget.js';
export { createSafeFetch, DEFAULT_USER_AGENT, MAX_REDIRECTS, type SafeFetchOptions } from './safe-fetch.js';
export { createSafeRequest, type SafeRequest, type SafeRequestInit, type SafeRequestOptions, type SafeResponse } from './safe-request.js';
