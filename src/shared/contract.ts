// The contract between the window and the engine, by name: every type of it (the window's calls
// and events, contract-calls.ts) and the requests the engine checks itself (contract-requests.ts).
// Only types come from contract-calls here: importing this module builds none of the window's
// schemas, so the engine and the command line import it freely; a face that binds the window
// (validates its calls) imports `methods` and `events` from contract-calls.ts.
export * from './contract-requests';
export type * from './contract-calls';
