// What a capability asks the client to send. Bodies are fixed at job creation (JSON text, or a
// file reference plus form fields with a boundary derived from the idempotency key), so every
// attempt sends the same bytes.
export type RequestBody =
  | { kind: 'json'; text: string }
  | {
      kind: 'multipart';
      boundary: string;
      fields: ReadonlyArray<readonly [string, string]>;
      file: { field: string; path: string; fileName: string; mime: string; size: number; sha256: string };
    };

export type Credential = 'api' | 'channel';

export interface ApiRequest {
  method: 'POST';
  path: string; // below {base_url}/v1, e.g. "/transcribe"
  body: RequestBody;
  idempotencyKey: string;
  credential: Credential;
  /**
   * Save a successful non-JSON answer (audio, an image) to this path, streamed: written to a
   * temporary name beside it and renamed when complete, never held whole in memory.
   */
  saveTo?: string;
}

/**
 * An answer's headers, looked up by name (any case). Not the WHATWG Headers class: building one
 * per answer loads Node's fetch implementation at the first answer and validates every header.
 */
export interface ResponseHeaders {
  get(name: string): string | null;
}

export interface ApiResponse {
  status: number;
  headers: ResponseHeaders;
  /** The body, or only its start when `truncated`. */
  body: Buffer;
  /** Bytes received in all (more than body.length when truncated). */
  bodyBytes: number;
  /** The server sent more than the client reads for this status (MAX_SUCCESS_BYTES / MAX_ERROR_BYTES). */
  truncated: boolean;
  latencyMs: number;
  /** SHA-256 of the file bytes actually uploaded (multipart only). */
  uploadedSha256: string | null;
  /** The answer was saved to `saveTo` (the body is then empty): its file name and size. */
  saved?: { path: string; name: string; bytes: number };
}
