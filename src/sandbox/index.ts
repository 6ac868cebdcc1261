// Public surface of the sandbox.
export { startSandbox, formatSandboxBanner, DEMO_CLIENT, type SandboxOptions, type SandboxHandle, type SandboxStats } from './server';
export { SandboxStore } from './store';
export { SandboxAdmin, SandboxAdminError } from './admin-client';
export type { Delivery, Faults, FaultsPatch, FaultsState, KeyInfo, UsageReport } from './admin-schemas';
