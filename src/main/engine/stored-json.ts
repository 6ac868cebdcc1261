// A JSON column read back (result_json, payload_json, options): its value, or null when it is
// empty or cannot be read, so one damaged row never stops a read model, an export or a search.
export function storedJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
