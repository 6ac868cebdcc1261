// docs/cli.md is generated from the command specs (scripts/cli-docs.ts): this fails when a spec
// changed and the file was not written again, so the reference never drifts from the commands.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_DOC, renderCliDoc } from '../../scripts/cli-docs';
import { COMMANDS } from '../../src/main/cli/registry';

describe('docs/cli.md', () => {
  it('is what scripts/cli-docs.ts writes from the specs today', () => {
    const onDisk = readFileSync(join(process.cwd(), CLI_DOC), 'utf8');
    // toBe, not a boolean, so a failure shows the lines that differ.
    expect(onDisk, 'docs/cli.md is stale: run `node --import tsx scripts/cli-docs.ts`').toBe(renderCliDoc());
  });

  it('has a section for every command, with each of its options', () => {
    const doc = renderCliDoc();
    for (const { spec } of COMMANDS) {
      const section = doc.split(`## \`batchdesk ${spec.name}\`\n`)[1]?.split('\n## ')[0] ?? '';
      expect(section, spec.name).toContain(spec.summary.slice(1));
      for (const option of Object.keys(spec.options)) expect(section, `${spec.name} --${option}`).toContain(`\`--${option}`);
    }
  });
});
