// The help pages are printed from the same specs the parser uses: every option a command parses
// has its one line in that command's --help, and every command has an example.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/main/cli/registry';
import { commandHelp, globalHelp } from '../../src/main/cli/help';
import { resolveCommand } from '../../src/main/cli/dispatch';

describe('command specs', () => {
  it.each(COMMANDS.map((c) => [c.spec.name, c] as const))('%s: help lists every option, with an example', (name, c) => {
    const help = commandHelp(c.spec);
    for (const [flag, o] of Object.entries(c.spec.options)) {
      expect(o.help.includes('\n'), `--${flag}: one line`).toBe(false);
      // Beside its flag, or on the next line in the same column when the flag is too long for it.
      expect(help).toMatch(new RegExp(`^  (-\\w, )?--${flag}\\b[^\\n]*(?:\\n +)?  ${o.help.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    }
    expect(c.spec.examples.every((e) => e.command.includes(`batchdesk ${name}`))).toBe(true);
    expect(globalHelp(COMMANDS.map((x) => x.spec))).toContain(`batchdesk ${name} `);
  });

  it('names are unique and each resolves to its own command', () => {
    const names = COMMANDS.map((c) => c.spec.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of COMMANDS) {
      const r = resolveCommand([...c.spec.name.split(' '), 'x'], COMMANDS);
      expect(r.kind === 'command' && r.entry === c && r.args).toEqual(['x']);
    }
  });
});
