// `--store URL`: the commands that work on a team's shared store take it, with one help line.
export const STORE_OPTION = {
  store: {
    type: 'string',
    value: 'URL',
    help: "the team's shared store, a PostgreSQL database (postgresql://user@host:5432/db; env BATCHDESK_STORE). Default: this computer's data folder",
  },
} as const;
