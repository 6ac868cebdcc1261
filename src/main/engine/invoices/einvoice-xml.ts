// An e-invoice's XML -> Invoice, on this computer: a UBL 2.1 Invoice or CreditNote, or a UN/CEFACT
// CrossIndustryInvoice (the syntaxes EN 16931 binds; XRechnung and ZUGFeRD/Factur-X use them). The
// XML is checked and parsed by fast-xml-parser (namespace prefixes removed: the syntaxes' elements
// have unique local names); what is not well-formed is "broken", with the parser's line and reason.
import type { X2jOptions, XMLParser } from 'fast-xml-parser';
import { xmlParserLib } from '../load-on-use';
import type { Invoice } from '../../../shared/invoices/invoice';
import { readCii } from './einvoice-cii';
import { readUbl } from './einvoice-ubl';
import type { XmlNode } from './xml-nodes';

export type EInvoiceSyntax = 'UBL' | 'CII';

export type EInvoiceXml =
  | { kind: 'einvoice'; syntax: EInvoiceSyntax; invoice: Invoice }
  /** Not well-formed XML; `cause` completes "... is not readable XML: <cause>". */
  | { kind: 'broken'; cause: string }
  /** Well-formed XML of another kind (its root element's name, if any). */
  | { kind: 'other'; root: string | null };

/** Far above any real e-invoice (a few hundred KB with thousands of lines); a bigger file is refused, not parsed. */
export const MAX_EINVOICE_BYTES = 32 * 1024 * 1024;

let parser: XMLParser | undefined;

/** The parser, made at the first e-invoice read (fast-xml-parser loads then, not at start-up). */
function xmlParser(): XMLParser {
  parser ??= new (xmlParserLib().XMLParser)(PARSER_OPTIONS);
  return parser;
}

const PARSER_OPTIONS: X2jOptions = {
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  // Values stay strings: "0100" is an id, "19.00" a decimal read exactly (xml-nodes.ts).
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
};

function decode(bytes: Uint8Array): string | null {
  try {
    // fatal: bytes that are not UTF-8 are a broken file, not text with replacement characters.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

/** Whether the bytes look like XML at all (a BOM or whitespace, then "<"). */
export function looksLikeXml(head: Uint8Array): boolean {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  return head[i] === 0x3c;
}

export function readEInvoiceXml(bytes: Uint8Array): EInvoiceXml {
  if (bytes.length > MAX_EINVOICE_BYTES)
    return { kind: 'broken', cause: `it is ${Math.round(bytes.length / 1024 / 1024)} MB, larger than any e-invoice Batchdesk reads (32 MB)` };
  const xml = decode(bytes);
  if (xml === null) return { kind: 'broken', cause: 'it is not UTF-8 text (EN 16931 e-invoices are UTF-8)' };
  const valid = xmlParserLib().XMLValidator.validate(xml);
  if (valid !== true) return { kind: 'broken', cause: `line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg.replace(/\.$/, '')}` };
  let tree: unknown;
  try {
    tree = xmlParser().parse(xml);
  } catch (err) {
    return { kind: 'broken', cause: err instanceof Error ? err.message.replace(/\.$/, '') : String(err) };
  }
  const top = typeof tree === 'object' && tree !== null ? (tree as XmlNode) : {};
  const root = Object.keys(top).find((k) => !k.startsWith('?') && !k.startsWith('#')) ?? null;
  const doc = root === null ? null : top[root];
  if (root === null || typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { kind: 'other', root };
  const node = doc as XmlNode;
  switch (root) {
    case 'Invoice':
    case 'CreditNote':
      return { kind: 'einvoice', syntax: 'UBL', invoice: readUbl(node, root) };
    case 'CrossIndustryInvoice':
      return { kind: 'einvoice', syntax: 'CII', invoice: readCii(node) };
    default:
      return { kind: 'other', root };
  }
}
