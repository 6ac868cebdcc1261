// Public surface of the importers: user input (files, folders, message CSVs) -> validated batch items.
export { importFiles, type ImportFilesOptions } from './import-files';
export { importMessageCsv, type ImportMessageCsvOptions, type MessageCsvResult } from './import-message-csv';
export { MAX_TEXT_CHARS } from './message-row';
export type { FileCapability, FileItem, ImportProblem, MessageChannelKind, MessageRow } from './types';
