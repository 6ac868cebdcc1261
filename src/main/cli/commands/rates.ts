import { parse } from '../parse';
import { ratesSpec } from '../specs/rates';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { globalOptions, openEngine, openEngineToRead } from '../context';
import { formatEur, parseEur } from '../../../shared/money';
import { RATE_ITEMS } from '../../../shared/rates';
import { Tier } from '../../../shared/domain';
import { rateUnit } from '../../../shared/capabilities/catalog';

export async function cmdRates(args: string[], io: Io): Promise<ExitCode> {
  const [sub, ...rest] = args;
  // A negative rate read as an option would be told to go after `--`, and then refused as a
  // rate: said at once instead.
  const negative = sub === 'set' ? rest.find((a) => /^-[\d.]/.test(a)) : undefined;
  if (negative !== undefined)
    throw new UsageError(`A rate cannot be negative (got ${negative}): give an amount in EUR of 0 or more with up to four decimals, e.g. 0.0040.`);
  const { values, positionals } = parse(rest, ratesSpec.options);
  // Listing only reads: a --data-dir with no data in it is said, not made (as status and keys do).
  const g = globalOptions(values, io.env);
  const engine = sub === 'list' ? openEngineToRead(g, io) : openEngine(g, io);
  try {
    if (sub === 'list') {
      const rates = engine.rates.all();
      if (values.json) io.stdout.write(`${JSON.stringify({ rates, scale: 10_000, currency: 'EUR' }, null, 2)}\n`);
      else
        for (const r of rates) {
          io.stdout.write(`${r.item.padEnd(18)} ${r.tier.padEnd(9)} ${formatEur(r.rate, 4)} per ${rateUnit(r.item)}${r.custom ? '' : '  (default)'}\n`);
        }
      return EXIT.ok;
    }
    if (sub === 'set') {
      const [itemText, tierText, amount] = positionals;
      const item = RATE_ITEMS.find((i) => i === itemText);
      if (!item) throw new UsageError(`Unknown rate item "${itemText ?? ''}". Items: ${RATE_ITEMS.join(', ')}.`);
      const tier = Tier.safeParse(tierText);
      if (!tier.success) throw new UsageError('The tier is basic, standard or superior.');
      const rate = amount === undefined ? null : parseEur(amount);
      if (rate === null) throw new UsageError(`The rate is an amount in EUR with up to four decimals, e.g. 0.0040 (got "${amount ?? ''}").`);
      engine.rates.set(item, tier.data, rate);
      io.stdout.write(
        `${item} ${tier.data}: ${formatEur(rate, 4)} per ${rateUnit(item)}. Estimates, and the cost of every item sent from now on (a batch sending now too), use it.\n`,
      );
      return EXIT.ok;
    }
    throw new UsageError('rates takes list or set.');
  } finally {
    engine.close();
  }
}
