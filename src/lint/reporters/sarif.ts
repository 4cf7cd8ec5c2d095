import type { Log, ReportingDescriptor, Result } from 'sarif';
import { escapePointerToken } from '../../schema/index.js';
import { nearestPosition } from '../json-locator.js';
import type { SourcePosition } from '../json-locator.js';
import type { LintResult, LintRule, Severity } from '../types.js';

/** Where the linted tools came from, for SARIF locations. */
export interface SarifSource {
  /** Artifact URI: a relative file path for files, the URL for servers, `stdio:<command>` for processes. */
  uri: string;
  /**
   * For a saved `tools/list` file: the pointer of the tools array in the file (`/tools` or "") and
   * the located positions of the file's JSON values, so results get line numbers.
   */
  file?: { toolsPointer: string; positions: ReadonlyMap<string, SourcePosition> };
}

const LEVEL: Record<Severity, Result.level> = { error: 'error', warning: 'warning', info: 'note' };

/** Builds a SARIF 2.1.0 log: one run, every known rule as a reporting descriptor, one result per finding. */
export function buildSarif(result: LintResult, rules: readonly LintRule[], source: SarifSource, version: string): Log {
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const descriptors: ReportingDescriptor[] = rules.map((r) => ({
    id: r.id,
    name: r.id.replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase()),
    shortDescription: { text: r.summary },
    help: { text: `See docs/lint-rules.md, section ${r.id}.` },
    defaultConfiguration: { level: LEVEL[r.defaultSeverity] },
    properties: { tags: [r.family] },
  }));
  const results: Result[] = result.findings.map((f) => {
    const logicalName = f.tool === undefined ? 'catalog' : `tools/${escapePointerToken(f.tool)}${f.pointer}`;
    const sarifResult: Result = {
      ruleId: f.ruleId,
      level: LEVEL[f.severity],
      message: { text: `${f.message}. Fix: ${f.fix}.` },
      locations: [{
        physicalLocation: { artifactLocation: { uri: source.uri } },
        logicalLocations: [{ fullyQualifiedName: logicalName, kind: 'member' }],
      }],
      partialFingerprints: { toolwrightFinding: `${f.ruleId}|${f.tool ?? ''}|${f.pointer}` },
    };
    const index = ruleIndex.get(f.ruleId);
    if (index !== undefined) sarifResult.ruleIndex = index;
    if (source.file !== undefined && f.toolIndex !== undefined) {
      const position = nearestPosition(source.file.positions, `${source.file.toolsPointer}/${f.toolIndex}${f.pointer}`);
      if (position !== undefined) sarifResult.locations![0]!.physicalLocation!.region = { startLine: position.line, startColumn: position.column };
    }
    return sarifResult;
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'toolwright', version, rules: descriptors } },
      results,
    }],
  };
}
