import { defineCommand } from '../command-spec';

export const keysAddSpec = defineCommand({
  name: 'keys add',
  summary: 'store an API or channel key in the OS keychain (the key is read from standard input)',
  usage: ['--kind api|channel --label NAME [--client NAME] [--api-url URL]'],
  options: {
    kind: { type: 'string', value: 'api|channel', help: 'an API key or a channel (messaging, voice, email) key' },
    label: { type: 'string', value: 'NAME', help: 'how the key is shown (the key itself never is)' },
    client: { type: 'string', value: 'NAME', help: 'the client the key belongs to' },
    'api-url': { type: 'string', value: 'URL', help: "base URL of the API this key belongs to (default: the configured API)" },
    'from-env': { type: 'string', value: 'VAR', help: 'read the key from this environment variable instead of standard input' },
  },
  examples: [
    { command: 'batchdesk keys add --kind api --label acme --client "ACME GmbH" --api-url https://api.example.com', note: 'paste the key (hidden)' },
    { command: "printf '%s' \"$KEY\" | batchdesk keys add --kind channel --label acme-whatsapp", note: 'or pipe it' },
  ],
});

export const keysListSpec = defineCommand({
  name: 'keys list',
  summary: 'list stored keys: label, kind, client, base URL, last four characters',
  usage: ['[--json]'],
  options: {
    json: { type: 'boolean', help: 'print {"keys": [...]}' },
  },
  examples: [{ command: 'batchdesk keys list' }],
});

export const keysRemoveSpec = defineCommand({
  name: 'keys remove',
  summary: 'remove a stored key from the keychain',
  usage: ['<label> [--kind api|channel]'],
  options: {
    kind: { type: 'string', value: 'api|channel', help: 'which one, when an api and a channel key share the label' },
    label: { type: 'string', value: 'NAME', help: 'the label, instead of giving it as an argument' },
  },
  examples: [{ command: 'batchdesk keys remove acme' }],
});
