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

/** Where each value of the identity comes from: the publisher's environment, else electron-builder.yml. */
export const IDENTITY_ENV = { maintainer: 'BATCHDESK_MAINTAINER', homepage: 'BATCHDESK_HOMEPAGE' } as const;

export interface EffectiveIdentity extends ReleaseIdentity {
  /** electron-builder `-c.` overrides that carry the environment's values into the build. */
  overrides: string[];
  /** Where each checked value was read, for the refusal's sentence. */
  source: { maintainer: string; vendor: string; homepage: string };
}

/**
 * The identity a build will carry. A publisher sets BATCHDESK_MAINTAINER ("Name <address@domain>",
 * also the vendor) and BATCHDESK_HOMEPAGE in the release job's environment (repository variables),
 * so a release needs no commit that writes the owner's contact into the source.
 */
export function effectiveIdentity(yml: string, env: Record<string, string | undefined>): EffectiveIdentity {
  const base = releaseIdentity(yml);
  const maintainer = env[IDENTITY_ENV.maintainer]?.trim() || null;
  const homepage = env[IDENTITY_ENV.homepage]?.trim() || null;
  const overrides: string[] = [];
  if (maintainer) overrides.push(`-c.deb.maintainer=${maintainer}`, `-c.deb.vendor=${maintainer}`);
  if (homepage) overrides.push(`-c.extraMetadata.homepage=${homepage}`);
  const fromYml = 'electron-builder.yml';
  return {
    maintainer: maintainer ?? base.maintainer,
    vendor: maintainer ?? base.vendor,
    homepage: homepage ?? base.homepage,
    overrides,
    source: {
      maintainer: maintainer ? IDENTITY_ENV.maintainer : `${fromYml}: deb.maintainer`,
      vendor: maintainer ? IDENTITY_ENV.maintainer : `${fromYml}: deb.vendor`,
      homepage: homepage ? IDENTITY_ENV.homepage : `${fromYml}: extraMetadata.homepage`,
    },
  };
}

function hostOf(value: string, kind: 'mail' | 'url'): string | null {
  if (kind === 'mail') return /<[^\s@<>]+@([^\s@<>]+)>$/.exec(value)?.[1] ?? null;
  try {
    return new URL(value).hostname;
  } catch {
    return null;
  }
}

/** What is wrong with the installers' maintainer and home page (environment, else electron-builder.yml), one sentence each; empty when nothing. */
export function identityProblems(yml: string, env: Record<string, string | undefined> = {}): string[] {
  const id = effectiveIdentity(yml, env);
  const problems: string[] = [];
  const check = (where: string, value: string | null, kind: 'mail' | 'url', form: string): void => {
    const host = value === null ? null : hostOf(value, kind);
    if (value === null || host === null) problems.push(`${where} is missing or not of the form ${form}.`);
    else if (RESERVED.test(host))
      problems.push(
        `${where} (${value}) is a placeholder (${host} is a reserved name): set it to the project's real ${kind === 'mail' ? 'contact' : 'address'}.`,
      );
  };
  check(id.source.maintainer, id.maintainer, 'mail', '"Name <address@domain>"');
  if (id.vendor !== null && id.source.vendor !== id.source.maintainer) check(id.source.vendor, id.vendor, 'mail', '"Name <address@domain>"');
  check(id.source.homepage, id.homepage, 'url', 'https://host/');
  return problems;
}
