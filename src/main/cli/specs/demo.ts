import { defineCommand } from '../command-spec';

export const demoSpec = defineCommand({
  name: 'demo',
  sends: true,
  summary: 'run the bundled samples end to end on the embedded sandbox, in the data folder',
  usage: ['[--data-dir DIR]'],
  options: {},
  examples: [
    { command: 'batchdesk demo --data-dir /tmp/batchdesk-demo', note: "keep the demo's batches out of your own data folder" },
    { command: 'batchdesk demo', note: 'into the default data folder, beside your own batches' },
  ],
});
