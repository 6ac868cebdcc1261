// Every `batchdesk` command, in the order the global help lists them: its spec (what the help and
// the parser need) now, its code when it runs. Loading every command's module (and, through them,
// the engine) cost each start, `--version` and `--help` included, the whole command line's code.
import type { CommandEntry } from './bind-command';
import type { CommandSpec } from './command-spec';
import type { Command } from './io';
import { demoSpec } from './specs/demo';
import { batchCreateSpec } from './specs/batch-create';
import { batchSkippedSpec } from './specs/batch-skipped';
import { runSpec } from './specs/run';
import { statusSpec } from './specs/status';
import { exportSpec } from './specs/export';
import { searchSpec } from './specs/search';
import { indexSpec } from './specs/index-batch';
import { cancelSpec, pauseSpec, resumeSpec, retrySpec } from './specs/control';
import { keysAddSpec, keysListSpec, keysRemoveSpec, keysSetSpec } from './specs/keys';
import { ratesSpec } from './specs/rates';
import { configSpec } from './specs/config';
import { optoutSpec } from './specs/optout';
import { reportSpec } from './specs/report';
import { compareSpec } from './specs/compare';
import { scheduleSpec } from './specs/schedule';
import { reviewSpec } from './specs/review';
import { watchSpec } from './specs/watch';
import { retentionSpec } from './specs/retention';
import { forgetSpec } from './specs/forget';
import { sandboxSpec } from './specs/sandbox';

/** A command whose module is imported when it runs. */
function onUse(spec: CommandSpec, command: () => Promise<Command>): CommandEntry {
  return { spec, run: async (args, io) => (await command())(args, io) };
}

export const COMMANDS: readonly CommandEntry[] = [
  onUse(demoSpec, async () => (await import('./commands/demo')).demoCommand.run),
  onUse(batchCreateSpec, async () => (await import('./commands/batch-create')).batchCreateCommand.run),
  onUse(batchSkippedSpec, async () => (await import('./commands/batch-skipped')).batchSkippedCommand.run),
  onUse(runSpec, async () => (await import('./commands/run')).runCommand.run),
  onUse(statusSpec, async () => (await import('./commands/status')).statusCommand.run),
  onUse(exportSpec, async () => (await import('./commands/export')).exportCommand.run),
  onUse(searchSpec, async () => (await import('./commands/search')).searchCommand.run),
  onUse(indexSpec, async () => (await import('./commands/index-batch')).indexCommand.run),
  onUse(pauseSpec, async () => (await import('./commands/control')).pauseCommand.run),
  onUse(resumeSpec, async () => (await import('./commands/control')).resumeCommand.run),
  onUse(cancelSpec, async () => (await import('./commands/control')).cancelCommand.run),
  onUse(retrySpec, async () => (await import('./commands/control')).retryCommand.run),
  onUse(scheduleSpec, async () => (await import('./commands/schedule')).scheduleCommand.run),
  onUse(compareSpec, async () => (await import('./commands/compare')).compareCommand.run),
  onUse(reportSpec, async () => (await import('./commands/report')).reportCommand.run),
  onUse(reviewSpec, async () => (await import('./commands/review')).reviewCommand.run),
  onUse(keysAddSpec, async () => (await import('./commands/keys')).keysAddCommand.run),
  onUse(keysListSpec, async () => (await import('./commands/keys')).keysListCommand.run),
  onUse(keysSetSpec, async () => (await import('./commands/keys')).keysSetCommand.run),
  onUse(keysRemoveSpec, async () => (await import('./commands/keys')).keysRemoveCommand.run),
  // rates and config read their sub-verb themselves and parse with their spec's options.
  onUse(ratesSpec, async () => (await import('./commands/rates')).cmdRates),
  onUse(configSpec, async () => (await import('./commands/config')).cmdConfig),
  onUse(optoutSpec, async () => (await import('./commands/optout')).cmdOptout),
  onUse(watchSpec, async () => (await import('./commands/watch')).cmdWatch),
  onUse(retentionSpec, async () => (await import('./commands/retention')).cmdRetention),
  onUse(forgetSpec, async () => (await import('./commands/forget')).cmdForget),
  onUse(sandboxSpec, async () => (await import('./commands/sandbox')).sandboxCommand.run),
];
