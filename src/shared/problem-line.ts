// One problem of an import as one line that names its file and row once, the same on the command
// line and in the window: "msgs.csv row 3: ...". The messages come in three shapes: a row's start
// with the row, the importer's and the planner's alike ("Row 3: ...", "Row 3 duplicates row 2
// ...", "Line 7 is longer ..."); a file's with its path or name; a team's refusal with the item
// ("msgs.csv row 3: ...").

/** The part of a path after its last slash (no node:path: the window uses this too). */
function lastPart(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** "msgs.csv: ..." or "msgs.csv is empty" (a name with an extension: "a problem ..." is not the file "a"). */
function startsWithFile(message: string, file: string): boolean {
  return message.startsWith(`${file}:`) || (lastPart(file).includes('.') && message.startsWith(`${file} `));
}

/**
 * `name` is how the file is shown (the command line: its name; the window: the path inside the
 * drop), `source` the file as the problem names it.
 */
export function problemLine(name: string, p: { source: string; row: number | null; message: string }): string {
  const file = lastPart(p.source);
  const m = p.message;
  // "msgs.csv row 3: ..." (the file named by its last part): as `name` says it.
  for (const unit of [' row ', ' line ']) if (m.startsWith(`${file}${unit}`)) return name + m.slice(file.length);
  // Already named: a message that starts with the file, as given, as shown or by its last part.
  if (m.startsWith(p.source) || startsWithFile(m, name) || startsWithFile(m, file)) return m;
  if (p.row !== null) {
    const own = /^(Row|Line) (\d+)\b/.exec(m);
    if (own !== null && Number(own[2]) === p.row) return `${name} ${(own[1] as string).toLowerCase()} ${p.row}${m.slice(own[0].length)}`;
  }
  return `${name}: ${m}`;
}
