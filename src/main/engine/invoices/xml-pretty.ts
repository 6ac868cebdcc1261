// An XML document laid out one element a line, indented, for reading in the job dialog: an
// e-invoice written on one line (as many generators do) is otherwise one long line. Text only:
// the caller shows it as text, never as markup.

/** Whether the text is laid out already (a line break for every few elements): then it is kept as it is. */
function laidOut(xml: string): boolean {
  const tags = (xml.match(/</g) ?? []).length;
  const lines = (xml.match(/\n/g) ?? []).length;
  return tags === 0 || lines * 4 >= tags;
}

/** The XML indented by two spaces a level; comments, CDATA and declarations on lines of their own. */
export function prettyXml(xml: string): string {
  if (laidOut(xml)) return xml;
  const tokens = xml.split(/(<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[^>]*>)/).filter((t) => t.trim() !== '');
  const out: string[] = [];
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] ?? '';
    const pad = '  '.repeat(depth);
    if (t.startsWith('</')) {
      depth = Math.max(0, depth - 1);
      out.push(`${'  '.repeat(depth)}${t}`);
    } else if (t.startsWith('<?') || t.startsWith('<!') || t.endsWith('/>')) {
      out.push(`${pad}${t}`);
    } else if (t.startsWith('<')) {
      // An element holding only text stays on one line: <cbc:ID>RE-1</cbc:ID>.
      const text = tokens[i + 1];
      const close = tokens[i + 2];
      if (text !== undefined && !text.startsWith('<') && close?.startsWith('</')) {
        out.push(`${pad}${t}${text.trim()}${close}`);
        i += 2;
      } else {
        out.push(`${pad}${t}`);
        depth++;
      }
    } else {
      out.push(`${pad}${t.trim()}`);
    }
  }
  return out.join('\n');
}
