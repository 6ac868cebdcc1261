// How a browser upload is named (its path as dropped) and which paths count as uploads; the label
// is asked for every file an import plans, so it cuts a plain path instead of resolving it.
import { describe, expect, it } from 'vitest';
import { UploadPaths } from '../../../src/main/engine/create/upload-paths';

const uploads = new UploadPaths('/data');

describe('UploadPaths', () => {
  it('names an upload by its path below the drop folder', () => {
    expect(uploads.label('/data/uploads/drop-1/calls/part-000/call-000001.wav')).toBe('calls/part-000/call-000001.wav');
    expect(uploads.label('/data/uploads/drop-1/a.wav')).toBe('a.wav');
  });

  it('resolves a path that is not plain before naming it', () => {
    expect(uploads.label('/data/uploads//drop-1//calls/./a.wav')).toBe('calls/a.wav');
    expect(uploads.label('/data/uploads/drop-1/x/../a.wav')).toBe('a.wav');
  });

  it('keeps any other path, and a drop folder itself, as it is', () => {
    expect(uploads.label('/elsewhere/a.wav')).toBe('/elsewhere/a.wav');
    expect(uploads.label('/data/uploadsX/drop-1/a.wav')).toBe('/data/uploadsX/drop-1/a.wav');
    expect(uploads.label('/data/uploads/drop-1')).toBe('/data/uploads/drop-1');
    expect(uploads.label('/data/uploads')).toBe('/data/uploads');
  });

  it('tells uploads from other paths', () => {
    expect(uploads.isUpload('/data/uploads/drop-1/a.wav')).toBe(true);
    expect(uploads.isUpload('/data/uploads/drop-1/../../secret')).toBe(false);
    expect(uploads.isUpload('/data/uploads')).toBe(false);
    expect(uploads.isUpload('/data/uploadsX/a')).toBe(false);
  });
});
