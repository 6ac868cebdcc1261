export const USAGE = `batchdesk - run large batches against the metered AI and communications API

Usage:
  batchdesk demo                                 run the bundled samples on the embedded sandbox
  batchdesk batch create <transcribe|ocr|channel> <paths...> [--tier basic|standard|superior]
                         [--channel whatsapp|voice|email|NAME] [--voice NAME] [--name TEXT] [--budget EUR]
  batchdesk run [batch-id...]                    process until nothing runnable is left
  batchdesk status [batch-id] [--json]
  batchdesk export <batch-id> --format csv|json|txt --out PATH
  batchdesk pause|cancel|retry <batch-id>
  batchdesk resume <batch-id> [--budget EUR|none]
  batchdesk keys add --kind api|channel --label NAME [--client NAME] [--api-url URL]   (key on stdin)
  batchdesk keys list | keys remove <label> [--kind api|channel]
  batchdesk rates list | rates set <item> <tier> <EUR per unit>
  batchdesk config list | config set <concurrency|rpm|max_attempts|messaging_channel> <value>
  batchdesk sandbox [--port N] [--db FILE] [--seed N]

Global options:
  --data-dir DIR   data folder (default: per-OS app data folder; env BATCHDESK_DATA_DIR)
  --api-url URL    API base URL (env BATCHDESK_API_URL); none configured = embedded sandbox
Keys: the OS keychain (batchdesk keys add), or BATCHDESK_API_KEY / BATCHDESK_CHANNEL_KEY.
Exit codes: 0 all succeeded, 1 some items failed, 2 usage error, 3 a batch is paused,
            4 could not start (data folder busy, keychain unavailable), 130 interrupted.
`;
