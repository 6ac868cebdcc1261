// The messages between a window's process (Electron main, the browser host) and the engine's own
// process: one protocol whatever carries it (Electron's utilityProcess, a Node child process).
// Each side checks every message it receives against these schemas: a process boundary is a
// boundary. Contract arguments are checked by the engine's dispatch (as they always were) and
// contract results and event payloads by the engine before they leave; the window's process
// passes them on without reading them (the renderer checks events again).
import { z } from 'zod';
import { type EventName } from '../../../shared/contract';
import { EVENT_NAMES, RpcError } from '../../../shared/contract-calls';
import type { FailureKind } from '../../engine/failures';

const Id = z.number().int().nonnegative();

/** What the engine process is started with: everything it needs to open the data folder and the API itself. */
export const EngineInit = z.object({
  dataDir: z.string().min(1),
  transport: z.enum(['electron', 'browser']),
  /** --api-url / BATCHDESK_API_URL at launch; null: the setting, else the embedded sandbox. */
  apiUrl: z.string().nullable(),
  /** A team's shared store (`--store URL`): opened by the engine process itself. */
  storeUrl: z.string().nullable(),
  /** Which native helpers the window's process serves (Electron): the engine asks for them by a shell request. */
  shell: z.object({ openDialog: z.boolean(), chooseFolder: z.boolean(), showInFolder: z.boolean() }).strict(),
  /** Shorter waits, for tests. */
  busyRetryMs: z.number().int().positive().optional(),
  watchStableMs: z.number().int().nonnegative().optional(),
  backoff: z.object({ baseMs: z.number().int().nonnegative(), capMs: z.number().int().nonnegative(), maxTries: z.number().int().positive() }).optional(),
});
export type EngineInit = z.infer<typeof EngineInit>;

export const FileRef = z.object({ path: z.string(), mime: z.string(), size: z.number().int().nonnegative() });
export type FileRef = z.infer<typeof FileRef>;

/**
 * What the window's process asks the engine besides contract calls: files to stream by path, a
 * zip streamed through this protocol, and whether items are being sent (the quit dialog).
 */
export const faceRequests = {
  jobFile: { arg: z.object({ jobId: z.number().int(), which: z.enum(['source', 'output']) }), result: FileRef.nullable() },
  download: { arg: z.object({ token: z.string() }), result: z.object({ path: z.string(), fileName: z.string() }).nullable() },
  filesZip: {
    arg: z.object({ id: z.string() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), fileName: z.string(), stream: Id }),
      z.object({ ok: z.literal(false), error: RpcError }),
    ]),
  },
  busy: { arg: z.object({}), result: z.boolean() },
  sweepUploads: {
    arg: z.object({ liveParts: z.array(z.string()), partAgeMs: z.number().int().nonnegative() }),
    result: z.array(
      z.object({
        path: z.string(),
        files: z.number().int().nonnegative(),
        bytes: z.number().nonnegative(),
        why: z.enum(['abandoned drop', 'files of a drop no item uses', 'interrupted upload']),
      }),
    ),
  },
} as const;
export type FaceRequests = typeof faceRequests;
export type FaceRequestName = keyof FaceRequests;
export type FaceArg<N extends FaceRequestName> = z.infer<FaceRequests[N]['arg']>;
export type FaceResult<N extends FaceRequestName> = z.infer<FaceRequests[N]['result']>;
const FACE_REQUEST_NAMES = Object.keys(faceRequests) as [FaceRequestName, ...FaceRequestName[]];

/** What the engine asks the window's process for: Electron's dialogs and file manager. */
export const shellRequests = {
  openDialog: { arg: z.object({ kind: z.enum(['files', 'folder', 'csv']) }), result: z.object({ supported: z.boolean(), paths: z.array(z.string()) }) },
  chooseFolder: { arg: z.object({ title: z.string() }), result: z.string().nullable() },
  showInFolder: { arg: z.object({ path: z.string() }), result: z.null() },
} as const;
export type ShellRequests = typeof shellRequests;
export type ShellRequestName = keyof ShellRequests;
export type ShellArg<N extends ShellRequestName> = z.infer<ShellRequests[N]['arg']>;
export type ShellResult<N extends ShellRequestName> = z.infer<ShellRequests[N]['result']>;
const SHELL_REQUEST_NAMES = Object.keys(shellRequests) as [ShellRequestName, ...ShellRequestName[]];

const FAILURE_KINDS = ['invalid', 'not_found', 'busy', 'unavailable', 'internal'] as const satisfies readonly FailureKind[];
// Both ways: a kind added to FailureKind must be added here too.
type MissingKind = Exclude<FailureKind, (typeof FAILURE_KINDS)[number]>;
const noMissingKind: [MissingKind] extends [never] ? true : MissingKind = true;
void noMissingKind;

const LogField = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const DispatchResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: RpcError }),
]);

/** Window's process -> engine. */
export const ToEngine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), init: EngineInit }),
  /** Resume started batches and watch folders (what opening the app does); sent again after a restart. */
  z.object({ type: z.literal('start') }),
  z.object({ type: z.literal('call'), id: Id, method: z.string(), arg: z.unknown() }),
  z.object({ type: z.literal('request'), id: Id, name: z.enum(FACE_REQUEST_NAMES), arg: z.unknown() }),
  z.object({
    type: z.literal('shell.answer'),
    id: Id,
    answer: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), result: z.unknown() }), z.object({ ok: z.literal(false), message: z.string() })]),
  }),
  /** One more chunk of a stream may be sent (flow control: the window's process reads as fast as its client does). */
  z.object({ type: z.literal('stream.credit'), stream: Id }),
  /** The reader went away: stop writing the stream. */
  z.object({ type: z.literal('stream.cancel'), stream: Id, reason: z.string() }),
  /** A line for the engine's log (the data folder's logs), from the window's process. */
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), event: z.string(), fields: z.record(z.string(), LogField) }),
  z.object({ type: z.literal('close') }),
  /** Are you there? Answered by `pong` from the engine's main thread: one that stays silent has hung. */
  z.object({ type: z.literal('ping'), id: Id }),
]);
export type ToEngine = z.infer<typeof ToEngine>;

/** Engine -> window's process. */
export const FromEngine = z.discriminatedUnion('type', [
  /** `readDb`: the data folder's database, which the window's reader thread may open read-only; null on a team's store. */
  z.object({ type: z.literal('ready'), dataDir: z.string(), uploadsDir: z.string(), readDb: z.string().nullable() }),
  /** It could not start (data folder unusable, shared store unreachable); it waits to be closed. */
  z.object({ type: z.literal('failed'), kind: z.enum(FAILURE_KINDS), message: z.string() }),
  /** The answer to a call or a request (one numbering for both). */
  z.object({ type: z.literal('result'), id: Id, response: DispatchResult }),
  z.object({ type: z.literal('event'), event: z.enum(EVENT_NAMES as [EventName, ...EventName[]]), payload: z.unknown() }),
  z.object({ type: z.literal('shell'), id: Id, name: z.enum(SHELL_REQUEST_NAMES), arg: z.unknown() }),
  z.object({ type: z.literal('stream.data'), stream: Id, chunk: z.instanceof(Uint8Array) }),
  z.object({ type: z.literal('stream.end'), stream: Id }),
  z.object({ type: z.literal('stream.error'), stream: Id, message: z.string() }),
  z.object({ type: z.literal('pong'), id: Id }),
]);
export type FromEngine = z.infer<typeof FromEngine>;

/** Chunks of a stream sent before the reader must grant more (each at most ~64 KiB). */
export const STREAM_WINDOW = 16;
