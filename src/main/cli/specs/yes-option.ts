// `--yes`: the commands that spend as soon as they are typed (index, compare) show the estimate
// and ask first; --yes answers for the user, where no one can (a script, a pipe, cron).
export const YES_OPTION = {
  yes: { type: 'boolean', help: 'send without asking after the estimate (needed where no one can answer: a script, a pipe)' },
} as const;
