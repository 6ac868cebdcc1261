// A retention rule by its parts and in the engine's words, one from the other; a log entry written
// before parts were stored (SQLite migration 28) reads back with parts from its words, in the
// engine, once, and an entry of another shape reads back without parts (shown as recorded).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, SCHEMA_VERSION } from '../../../src/main/engine/schema/migrations';
import { RetentionLog } from '../../../src/main/engine/retention/retention-log';
import { originName, originOfName, partsOfRuleWords, ruleWords, storedRuleParts } from '../../../src/main/engine/retention/rule-parts';
import { RuleParts, type RuleOrigin, type RulePart } from '../../../src/shared/retention-rules';
import { tempDir } from '../../helpers/temp-dir';

/** The schema step that adds rule_parts (its "// 28:"; step 2 has two entries). */
const PARTS_STEP = 29;

const ORIGINS: RuleOrigin[] = [
  { who: 'batch', id: 'b_1', firstStep: false },
  { who: 'batch', id: 'b_1', firstStep: true },
  { who: 'folder', dir: '/srv/calls in, north' },
  { who: 'default' },
  { who: 'teamDefault' },
  { who: 'creatorDefault', computer: 'host 412' },
];

describe('retention rule parts', () => {
  it('says every origin in the words the log has always had, and reads them back', () => {
    expect(ORIGINS.map(originName)).toEqual([
      'batch b_1',
      'batch b_1 (first step)',
      'watched folder /srv/calls in, north',
      'default',
      'team default',
      'the default of host 412, the computer that made the batch',
    ]);
    for (const o of ORIGINS) expect(originOfName(originName(o))).toEqual(o);
    expect(originOfName('none')).toBeNull();
  });

  it('reads any rule of parts back from its words, also where an origin holds ", "', () => {
    const rules: RulePart[][] = [
      [{ what: 'files', days: 1, origin: { who: 'default' } }],
      [{ what: 'results', days: 90, origin: { who: 'creatorDefault', computer: 'host 412' } }],
      [
        { what: 'originals', origin: { who: 'folder', dir: '/srv/calls in, north' } },
        { what: 'files', days: 30, origin: { who: 'batch', id: 'b_1', firstStep: true } },
      ],
    ];
    for (const parts of rules) {
      expect(RuleParts.parse(parts)).toEqual(parts);
      expect(partsOfRuleWords(ruleWords(parts))).toEqual(parts);
    }
    expect(ruleWords(rules[2] ?? [])).toBe('delete originals after success (watched folder /srv/calls in, north), keep-files-days 30 (batch b_1 (first step))');
    expect(partsOfRuleWords('default: files after 14 days')).toBeNull();
    expect(partsOfRuleWords('keep-files-days 3 (somewhere else)')).toBeNull();
  });

  it('takes stored parts over the words, and words only when none are stored or they do not read', () => {
    const parts: RulePart[] = [{ what: 'files', days: 7, origin: { who: 'batch', id: 'b_9', firstStep: false } }];
    expect(storedRuleParts(JSON.stringify(parts), 'keep-files-days 1 (default)')).toEqual(parts);
    expect(storedRuleParts(null, 'keep-files-days 1 (default)')).toEqual([{ what: 'files', days: 1, origin: { who: 'default' } }]);
    expect(storedRuleParts('{"not":"parts"}', 'keep-files-days 1 (default)')).toEqual([{ what: 'files', days: 1, origin: { who: 'default' } }]);
    expect(storedRuleParts(null, 'odd words')).toBeNull();
  });

  it("reads a data folder's log from before the step: old entries by their words, new ones by their parts", () => {
    const dir = tempDir();
    const db = new Database(join(dir.path, 'old.sqlite'));
    try {
      migrate(db, PARTS_STEP - 1);
      db.prepare(`INSERT INTO retention_log (at, kind, what, rule, batch_id, job_id) VALUES (?, ?, ?, ?, ?, ?)`).run(
        1,
        'upload',
        '/data/uploads/a.wav',
        'delete originals after success (watched folder /in), keep-files-days 30 (batch b_1 (first step))',
        'b_2',
        4,
      );
      db.prepare(`INSERT INTO retention_log (at, kind, what, rule, batch_id, job_id) VALUES (?, ?, ?, ?, ?, ?)`).run(
        2,
        'result',
        'job 5',
        'odd words',
        'b_2',
        5,
      );
      migrate(db, SCHEMA_VERSION);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const log = new RetentionLog(db);
      const parts: RulePart[] = [{ what: 'results', days: 60, origin: { who: 'default' } }];
      log.add({ at: 3, kind: 'result', what: 'job 6', rule: ruleWords(parts), parts, batchId: 'b_2', jobId: 6 });
      expect(log.recent(10).map((e) => [e.what, e.parts])).toEqual([
        [
          '/data/uploads/a.wav',
          [
            { what: 'originals', origin: { who: 'folder', dir: '/in' } },
            { what: 'files', days: 30, origin: { who: 'batch', id: 'b_1', firstStep: true } },
          ],
        ],
        ['job 5', null],
        ['job 6', parts],
      ]);
      // Kept as written: the new entry's parts are stored, the old ones' words untouched.
      expect(db.prepare(`SELECT rule_parts FROM retention_log ORDER BY id`).pluck().all()).toEqual([null, null, JSON.stringify(parts)]);
    } finally {
      db.close();
      dir.cleanup();
    }
  });
});
