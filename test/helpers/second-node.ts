// The second runtime of the suite: Node 22 LTS (ABI 127) beside the suite's Node 24, from CI's
// environment, else fetched into .tmp/runtime by the same script CI uses (Linux x64 only).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const secondNodeAvailable = process.platform === 'linux' && process.arch === 'x64';

/** The folder holding the second runtime's bin/node and include/node. */
export function secondNodeDir(): string {
  const given = process.env.BATCHDESK_SECOND_NODE;
  if (given) return given;
  const r = spawnSync('bash', [join(process.cwd(), 'scripts', 'node-runtimes.sh')], { encoding: 'utf8', timeout: 300_000 });
  const dir = /BATCHDESK_SECOND_NODE='([^']+)'/.exec(r.stdout)?.[1];
  if (r.status !== 0 || !dir) throw new Error(`scripts/node-runtimes.sh did not provide a second Node: ${r.stderr}`);
  return dir;
}

export const secondNodeBinary = (): string => join(secondNodeDir(), 'bin', 'node');
