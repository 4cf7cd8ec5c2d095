/**
 * Which protocol eras a server answers (digest §1.4): `modern` is 2026-07-28 (per-request `_meta`,
 * no handshake), `legacy` is the `initialize`-based 2025 revisions. A dual-era server serves both
 * on one endpoint or process; that is the default.
 */
import { PROTOCOL_VERSION, SERVER_LEGACY_PROTOCOL_VERSIONS } from '../protocol/versions.js';

/** One protocol era. */
export type Era = 'modern' | 'legacy';

/**
 * What `createServer({ eras })`, `toolwright serve --eras` and the robot arm's `--eras` accept:
 * `'modern'`, `'legacy'`, `'both'`, or a list of eras and revisions such as
 * `['2026-07-28', '2025']` (a revision or a year names the era it belongs to).
 */
export type ErasSetting = Era | 'both' | readonly string[];

/** The eras a dual-era server serves by default. */
export const DEFAULT_ERAS: ReadonlySet<Era> = new Set<Era>(['modern', 'legacy']);

/** An eras setting that names no known era or revision. */
export class ErasSettingError extends TypeError {
  override readonly name = 'ErasSettingError';
}

function eraOf(word: string): Era | undefined {
  const w = word.trim().toLowerCase();
  if (w === 'modern' || w === PROTOCOL_VERSION || w === '2026') return 'modern';
  if (w === 'legacy' || w === '2025' || SERVER_LEGACY_PROTOCOL_VERSIONS.includes(w)) return 'legacy';
  return undefined;
}

/**
 * Resolves an eras setting (or comma-separated text from a command line) into the set of eras.
 * @throws ErasSettingError naming the accepted words for anything else, or for an empty list.
 */
export function resolveEras(setting: ErasSetting | string | undefined): ReadonlySet<Era> {
  if (setting === undefined) return DEFAULT_ERAS;
  const words = typeof setting === 'string' ? (setting.trim().toLowerCase() === 'both' ? ['modern', 'legacy'] : setting.split(',')) : [...setting];
  const eras = new Set<Era>();
  for (const word of words) {
    const era = typeof word === 'string' ? eraOf(word) : undefined;
    if (era === undefined) {
      throw new ErasSettingError(`eras: unknown era ${JSON.stringify(word)}; use modern, legacy, both, or revisions (${PROTOCOL_VERSION}, ${SERVER_LEGACY_PROTOCOL_VERSIONS.join(', ')}, 2025)`);
    }
    eras.add(era);
  }
  if (eras.size === 0) throw new ErasSettingError('eras: the list is empty; a server must serve at least one era');
  return eras;
}
