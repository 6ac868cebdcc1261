// Validates UBL 2.1 Invoice XML against an XML Schema with a real XSD validator: libxml2's
// xmllint, compiled to WebAssembly (npm package xmllint-wasm), so nothing needs installing on the
// machine. By default the schema is Batchdesk's reduced UBL 2.1 Invoice schema in
// test/fixtures/ubl-2.1; with --xsd-dir it is the official OASIS one (the release's xsd/ or
// xsdrt/ folder, or the release root that holds them: maindoc/UBL-Invoice-2.1.xsd is looked up).
//   npx tsx scripts/validate-ubl.ts [--xsd-dir DIR] FILE.xml...
// Exits 0 when every file is valid, 1 when one is not, 2 on a usage or schema error.
// validateUbl() is exported for the tests; the file only runs the command when run directly.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { validateXML, type XMLFileInfo } from 'xmllint-wasm';

export const SUBSET_XSD_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'ubl-2.1');

/** Where the Invoice schema sits in a folder, in the order tried. */
const MAIN_SCHEMA_CANDIDATES = [
  'UBL-Invoice-2.1-subset.xsd',
  'maindoc/UBL-Invoice-2.1.xsd',
  'xsd/maindoc/UBL-Invoice-2.1.xsd',
  'xsdrt/maindoc/UBL-Invoice-2.1.xsd',
  'UBL-Invoice-2.1.xsd',
];

/** The official schema set is a few megabytes of XSD; libxml2 needs more than the default 32 MiB for it. */
const MAX_MEMORY_PAGES = 16 * 512; // 512 MiB in 64 KiB pages
/** Root of the in-memory file system the schema files are copied to. */
const VFS_ROOT = 'xsd';

export interface UblValidation {
  valid: boolean;
  errors: string[];
}

export function mainSchemaPath(xsdDir: string, root: 'Invoice' | 'CreditNote' = 'Invoice'): string {
  for (const candidate of MAIN_SCHEMA_CANDIDATES) {
    const path = resolve(xsdDir, candidate.replace('Invoice', root));
    if (existsSync(path)) return path;
  }
  throw new Error(`No UBL 2.1 ${root} schema in ${xsdDir} (looked for ${MAIN_SCHEMA_CANDIDATES.map((c) => c.replace('Invoice', root)).join(', ')})`);
}

/** The schema and every file it imports or includes (transitively), by local schemaLocation. */
async function schemaFiles(mainPath: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const pending = [mainPath];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (files.has(path)) continue;
    const text = await readFile(path, 'utf8');
    files.set(path, text);
    const refs = /<(?:[\w.-]+:)?(?:import|include|redefine)\b[^>]*?\bschemaLocation\s*=\s*(["'])(.*?)\1/g;
    for (const match of text.replace(/<!--[\s\S]*?-->/g, '').matchAll(refs)) {
      const location = match[2] ?? '';
      if (location === '' || /^[a-z][a-z0-9+.-]*:/i.test(location)) continue; // remote: libxml2 would fail on it anyway
      pending.push(resolve(dirname(path), location));
    }
  }
  return files;
}

/** Validates one XML document against the UBL 2.1 Invoice schema in `xsdDir` (default: our subset). */
export async function validateUbl(xml: string, xsdDir: string = SUBSET_XSD_DIR, fileName = 'invoice.xml'): Promise<UblValidation> {
  // A credit note is checked against UBL's CreditNote schema, anything else against the Invoice's.
  const mainPath = mainSchemaPath(xsdDir, /<(?:[\w.-]+:)?CreditNote[\s>]/.test(xml.slice(0, 2000)) ? 'CreditNote' : 'Invoice');
  const files = await schemaFiles(mainPath);
  // Paths in the in-memory file system keep the folder layout, so relative imports resolve.
  let common = dirname(mainPath);
  for (const p of files.keys()) {
    while (relative(common, p).startsWith('..') && dirname(common) !== common) common = dirname(common);
  }
  const vfs = (p: string): string => `${VFS_ROOT}/${relative(common, p).split(sep).join('/')}`;
  const schema: XMLFileInfo = { fileName: vfs(mainPath), contents: files.get(mainPath) ?? '' };
  const preload: XMLFileInfo[] = [...files].filter(([p]) => p !== mainPath).map(([p, contents]) => ({ fileName: vfs(p), contents }));
  const safeName =
    basename(fileName)
      .replace(/^[-\s]+/, '')
      .replace(/\s+/g, '_') || 'invoice.xml';
  const result = await validateXML({
    xml: { fileName: safeName, contents: xml },
    schema,
    preload,
    maxMemoryPages: MAX_MEMORY_PAGES,
  });
  const errors = result.valid ? [] : result.errors.map((e) => e.rawMessage.trim()).filter((e) => e !== '');
  return { valid: result.valid, errors: !result.valid && errors.length === 0 ? [result.rawOutput.trim()] : errors };
}

async function main(argv: readonly string[]): Promise<number> {
  let xsdDir = SUBSET_XSD_DIR;
  const inputs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--xsd-dir') {
      const dir = argv[++i];
      if (dir === undefined) return usage('--xsd-dir needs a folder');
      xsdDir = resolve(dir);
    } else if (arg.startsWith('--xsd-dir=')) {
      xsdDir = resolve(arg.slice('--xsd-dir='.length));
    } else if (arg === '-h' || arg === '--help') {
      return usage(null);
    } else if (arg.startsWith('-')) {
      return usage(`unknown option ${arg}`);
    } else {
      inputs.push(arg);
    }
  }
  if (inputs.length === 0) return usage('no XML file given');
  let schemaPath: string;
  try {
    schemaPath = mainSchemaPath(xsdDir);
  } catch (err) {
    return usage(err instanceof Error ? err.message : String(err));
  }
  console.log(`Schema: ${schemaPath}`);
  let allValid = true;
  for (const input of inputs) {
    const xml = await readFile(input, 'utf8');
    const { valid, errors } = await validateUbl(xml, xsdDir, basename(input));
    console.log(`${input}: ${valid ? 'valid' : 'INVALID'}`);
    for (const e of errors) console.log(`  ${e}`);
    allValid &&= valid;
  }
  return allValid ? 0 : 1;
}

function usage(problem: string | null): number {
  if (problem !== null) console.error(`validate-ubl: ${problem}`);
  console.error('usage: npx tsx scripts/validate-ubl.ts [--xsd-dir DIR] FILE.xml...');
  console.error(`  default schema: ${SUBSET_XSD_DIR} (the Batchdesk subset of UBL 2.1)`);
  console.error('  --xsd-dir DIR: an official UBL 2.1 schema folder (DIR/maindoc/UBL-Invoice-2.1.xsd)');
  return problem === null ? 0 : 2;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(`validate-ubl: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 2;
    },
  );
}
