// Who the installers name: the deb's Maintainer and Vendor (electron-builder.yml deb.maintainer, deb.vendor) and Homepage
// (extraMetadata.homepage, also the packaged package.json's). `npm run dist` refuses a deb while
// either is a placeholder: a reserved name (RFC 2606/6761: .invalid, .example, .test, .localhost,
// example.com) that would send a user's questions and bug reports nowhere. Plain TypeScript without
// imports, so that scripts/dist.mjs loads it with Node's own type stripping.

const RESERVED = /(^|\.)(invalid|example|test|localhost)$|(^|\.)example\.(com|net|org)$/i;

/** A top-level section's own lines of a YAML file: up to the next line that is not indented (comments aside). */
function section(yml: string, name: string): string {
  return (yml.split(new RegExp(`^${name}:$`, 'm'))[1] ?? '').split(/^(?=[^\s#])/m)[0] ?? '';
}

function field(text: string, name: string): string | null {
  return new RegExp(`^ {2}${name}: *(.+?) *$`, 'm').exec(text)?.[1] ?? null;
}

export interface ReleaseIdentity {
  maintainer: string | null;
  vendor: string | null;
  homepage: string | null;
}

export function releaseIdentity(yml: string): ReleaseIdentity {
  const deb = section(yml, 'deb');
  return { maintainer: field(deb, 'maintainer'), vendor: field(deb, 'vendor'), homepage: field(section(yml, 'extraMetadata'), 'homepage') };
}

function hostOf(value: string, kind: 'mail' | 'url'): string | null {
  if (kind === 'mail') return /<[^\s@<>]+@([^\s@<>]+)>$/.exec(value)?.[1] ?? null;
  try {
    return new URL(value).hostname;
  } catch {
    return null;
  }
}

/** What is wrong with the installers' maintainer and home page in electron-builder.yml, one sentence each; empty when nothing. */
export function identityProblems(yml: string): string[] {
  const id = releaseIdentity(yml);
  const problems: string[] = [];
  const check = (what: string, value: string | null, kind: 'mail' | 'url', form: string): void => {
    const host = value === null ? null : hostOf(value, kind);
    if (value === null || host === null) problems.push(`electron-builder.yml: ${what} is missing or not of the form ${form}.`);
    else if (RESERVED.test(host))
      problems.push(
        `electron-builder.yml: ${what} (${value}) is a placeholder (${host} is a reserved name): set it to the project's real ${kind === 'mail' ? 'contact' : 'address'}.`,
      );
  };
  check('deb.maintainer', id.maintainer, 'mail', '"Name <address@domain>"');
  if (id.vendor !== null) check('deb.vendor', id.vendor, 'mail', '"Name <address@domain>"');
  check('extraMetadata.homepage', id.homepage, 'url', 'https://host/');
  return problems;
}
