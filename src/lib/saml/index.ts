export { serviceProvider, type ServiceProvider, type ServiceProviderConfig, type SamlLogin } from './service-provider.js';
export type { RequestIdStore, ReplayStore } from './stores.js';
export { MemoryReplayStore, MemoryRequestIdStore } from './memory-stores.js';
export { SamlConfigError, SamlError, SAML_ERROR_CODES, type SamlErrorCode } from './saml-error.js';
export { normalizeCertificate, checkPrivateKey } from './certificate.js';
export type { Attributes, SamlIdentity } from './identity.js';
