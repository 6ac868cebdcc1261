import { defineCommand } from '../command-spec';

export const keysAddSpec = defineCommand({
  name: 'keys add',
  summary: 'store an API or channel key in the OS keychain (the key is read from standard input)',
  usage: ['--kind api|channel --label NAME [--client NAME] [--rpm N] [--api-url URL]'],
  options: {
    kind: { type: 'string', value: 'api|channel', help: 'an API key or a channel (messaging, voice, email) key' },
    label: { type: 'string', value: 'NAME', help: 'how the key is shown (the key itself never is)' },
    client: { type: 'string', value: 'NAME', help: 'the client the key belongs to' },
    rpm: { type: 'string', value: 'N', help: "the key's own request limit per minute, as the API's panel shows it (default: the general `config set rpm`)" },
    'api-url': { type: 'string', value: 'URL', help: 'base URL of the API this key belongs to (default: the configured API)' },
    'from-env': { type: 'string', value: 'VAR', help: 'read the key from this environment variable instead of standard input' },
  },
  examples: [
    { command: 'batchdesk keys add --kind api --label acme --client "ACME GmbH" --rpm 600 --api-url https://api.example.com', note: 'paste the key (hidden)' },
    { command: 'printf \'%s\' "$KEY" | batchdesk keys add --kind channel --label acme-whatsapp', note: 'or pipe it' },
  ],
});

export const keysListSpec = defineCommand({
  name: 'keys list',
  summary: 'list stored keys: label, kind, client, request limit, base URL, last four characters (* = the default of its kind)',
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

export const keysSetSpec = defineCommand({
  name: 'keys set',
  summary: "change a stored key's client or request limit, or make it the default key of its kind",
  usage: ['<label> [--client NAME] [--rpm N|default] [--default] [--kind api|channel]'],
  options: {
    client: { type: 'string', value: 'NAME', help: 'the client the key belongs to ("" for none); batches created from now on are billed to it' },
    rpm: { type: 'string', value: 'N|default', help: "the key's own request limit per minute; `default`: the general `config set rpm`" },
    default: { type: 'boolean', help: 'batches created without --key send with this key from now on' },
    kind: { type: 'string', value: 'api|channel', help: 'which one, when an api and a channel key share the label' },
  },
  examples: [
    { command: 'batchdesk keys set acme --rpm 120', note: "ACME's key allows 120 requests a minute: its batches keep to that, whatever runs beside them" },
    { command: 'batchdesk keys set acme --client "ACME GmbH" --default' },
  ],
  notes: ['A running engine picks a changed limit up at once. Batches already created keep their key and client.'],
});
