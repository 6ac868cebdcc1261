// Shared shape of the two upload routes: stream the multipart body, fingerprint fields + file
// hashes, and find the `file` part.
import { invalid } from '../http';
import { readUpload, type Upload, type UploadedFile } from '../upload';
import type { Prepared, RequestContext, Route } from './types';

export function uploadRoute(pattern: RegExp, prepare: (upload: Upload, file: UploadedFile) => Prepared): Route {
  return {
    method: 'POST',
    pattern,
    paramNames: [],
    keyKind: 'api',
    idempotency: 'optional',
    async read(ctx: RequestContext) {
      const upload = await readUpload(ctx.req);
      ctx.stats.uploads++;
      ctx.stats.uploadBytes += upload.files.reduce((s, f) => s + f.size, 0);
      ctx.stats.peakParserBytes = Math.max(ctx.stats.peakParserBytes, upload.peakParserBytes);
      const fields = Object.fromEntries(Object.entries(upload.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      return {
        // The boundary and file name do not matter; the form fields and file content do (A4).
        canonical: { fields, files: upload.files.map((f) => ({ field: f.field, sha256: f.sha256, size: f.size })) },
        prepare() {
          const file = upload.files.find((f) => f.field === 'file');
          if (!file) throw invalid(400, 'missing_file', 'The multipart body has no "file" part.');
          if (file.size === 0) throw invalid(400, 'empty_file', 'The uploaded file is empty.');
          return prepare(upload, file);
        },
      };
    },
  };
}
