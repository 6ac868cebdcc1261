// Every `batchdesk` command, in the order the global help lists them.
import type { CommandEntry } from './bind-command';
import { demoCommand } from './commands/demo';
import { batchCreateCommand } from './commands/batch-create';
import { batchSkippedCommand } from './commands/batch-skipped';
import { runCommand } from './commands/run';
import { statusCommand } from './commands/status';
import { exportCommand } from './commands/export';
import { searchCommand } from './commands/search';
import { indexCommand } from './commands/index-batch';
import { cancelCommand, pauseCommand, resumeCommand, retryCommand } from './commands/control';
import { keysAddCommand, keysListCommand, keysRemoveCommand, keysSetCommand } from './commands/keys';
import { cmdRates } from './commands/rates';
import { cmdConfig } from './commands/config';
import { sandboxCommand } from './commands/sandbox';
import { ratesSpec } from './specs/rates';
import { configSpec } from './specs/config';
import { cmdOptout } from './commands/optout';
import { reportCommand } from './commands/report';
import { compareCommand } from './commands/compare';
import { scheduleCommand } from './commands/schedule';
import { optoutSpec } from './specs/optout';
import { cmdWatch } from './commands/watch';
import { watchSpec } from './specs/watch';
import { reviewCommand } from './commands/review';
import { cmdRetention } from './commands/retention';
import { retentionSpec } from './specs/retention';
import { cmdForget } from './commands/forget';
import { forgetSpec } from './specs/forget';

export const COMMANDS: readonly CommandEntry[] = [
  demoCommand,
  batchCreateCommand,
  batchSkippedCommand,
  runCommand,
  statusCommand,
  exportCommand,
  searchCommand,
  indexCommand,
  pauseCommand,
  resumeCommand,
  cancelCommand,
  retryCommand,
  scheduleCommand,
  compareCommand,
  reportCommand,
  reviewCommand,
  keysAddCommand,
  keysListCommand,
  keysSetCommand,
  keysRemoveCommand,
  // rates and config read their sub-verb themselves and parse with their spec's options.
  { spec: ratesSpec, run: cmdRates },
  { spec: configSpec, run: cmdConfig },
  { spec: optoutSpec, run: cmdOptout },
  { spec: watchSpec, run: cmdWatch },
  { spec: retentionSpec, run: cmdRetention },
  { spec: forgetSpec, run: cmdForget },
  sandboxCommand,
];
