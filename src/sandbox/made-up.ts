// The sandbox's one word for "made up" (docs/api-assumptions.md A21): an answer whose content the
// sandbox invented (a canned transcript, a generated text, image or voice, a stand-in's vector) or
// whose effect happened only inside it (a message nobody received, a record in its own CRM)
// carries `"sandbox": true` in its JSON, or the header `X-Sandbox-Made-Up: true` when its body is
// a file (every answer carries `X-Sandbox: 1`, which names the server, not the content). What it
// read from the input itself (a PDF's text layer, the script a sample recording carries) is not
// marked: it is what the document says. A real API's answers never carry the mark.

/** Spread into a JSON answer the sandbox made up. */
export const MADE_UP = { sandbox: true } as const;

/** The headers of a binary answer (audio, an image) the sandbox made up. */
export const MADE_UP_HEADERS: Readonly<Record<string, string>> = { 'X-Sandbox-Made-Up': 'true' };
