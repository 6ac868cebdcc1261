import { describe, expect, it } from 'vitest';
import { chooseStore, describeStore, redactUrl, STORE_ENV, urlWithoutPassword } from '../../../src/main/engine/store/store-url';
import { isStoreUnreachable, isTransientConflict } from '../../../src/main/engine/store/pg/store-unreachable';

describe('chooseStore', () => {
  it('uses the data folder when neither --store nor BATCHDESK_STORE is given', () => {
    expect(chooseStore(undefined, {})).toEqual({ kind: 'sqlite' });
    expect(chooseStore(undefined, { [STORE_ENV]: '  ' })).toEqual({ kind: 'sqlite' });
  });

  it('takes the flag before the environment', () => {
    expect(chooseStore('postgresql://a@db1:5432/team', { [STORE_ENV]: 'postgresql://b@db2/other' })).toEqual({
      kind: 'postgresql',
      url: 'postgresql://a@db1:5432/team',
    });
    expect(chooseStore(undefined, { [STORE_ENV]: 'postgres://b@db2/other' })).toEqual({ kind: 'postgresql', url: 'postgres://b@db2/other' });
  });

  it('names what is wrong, where it came from and what to do, without the password', () => {
    expect(() => chooseStore('mysql://u:secret@db/team', {})).toThrow(
      /^--store "mysql:\/\/u:\*\*\*@db\/team" is not a PostgreSQL URL .*postgresql:\/\/user@host:5432\/database, or leave --store out/,
    );
    expect(() => chooseStore(undefined, { [STORE_ENV]: 'postgresql://u@db' })).toThrow(/^BATCHDESK_STORE .* names no database/);
    expect(() => chooseStore('team-db', {})).toThrow(/is not a URL/);
    try {
      chooseStore('ftp://u:hunter2@db/x', {});
    } catch (e) {
      expect(String(e)).not.toContain('hunter2');
    }
  });

  it('describes the store without the password', () => {
    expect(redactUrl('postgresql://ops:hunter2@db.lan:5432/team')).toBe('postgresql://ops:***@db.lan:5432/team');
    expect(describeStore({ kind: 'postgresql', url: 'postgresql://ops:pw@db/team' }, '/d')).toBe('the shared store postgresql://ops:***@db/team');
    expect(describeStore({ kind: 'sqlite' }, '/home/x/.config/Batchdesk')).toContain('/home/x/.config/Batchdesk');
    // libpq reads a password from the query too.
    expect(redactUrl('postgresql://ops@db/team?password=hunter2&sslmode=require')).toBe('postgresql://ops@db/team?password=***&sslmode=require');
  });

  it('gives the URL to type again without any password', () => {
    expect(urlWithoutPassword('postgresql://ops:hunter2@db.lan:5432/team')).toBe('postgresql://ops@db.lan:5432/team');
    expect(urlWithoutPassword('postgresql://ops@db/team?password=hunter2&sslmode=require')).toBe('postgresql://ops@db/team?sslmode=require');
    expect(urlWithoutPassword('postgresql://db/team')).toBe('postgresql://db/team');
  });
});

describe('isStoreUnreachable', () => {
  const coded = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });
  it('treats a server down, restarting or out of connections as unreachable', () => {
    for (const c of ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P03', '08006', '53300']) expect(isStoreUnreachable(coded(c))).toBe(true);
    expect(isStoreUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isStoreUnreachable(new AggregateError([coded('ECONNREFUSED')], 'connect failed'))).toBe(true);
  });
  it('treats a refused statement as an error of its own', () => {
    expect(isStoreUnreachable(coded('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isStoreUnreachable(coded('42P01', 'relation "jobs" does not exist'))).toBe(false);
    expect(isStoreUnreachable('down')).toBe(false);
  });
});

describe('isTransientConflict', () => {
  const coded = (code: string): Error => Object.assign(new Error('x'), { code });
  it('runs again a transaction rolled back for a deadlock or a serialization conflict, nothing else', () => {
    expect(isTransientConflict(coded('40P01'))).toBe(true);
    expect(isTransientConflict(coded('40001'))).toBe(true);
    expect(isTransientConflict(coded('23505'))).toBe(false);
    expect(isTransientConflict(coded('ECONNREFUSED'))).toBe(false);
  });
});
