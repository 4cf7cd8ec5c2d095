/**
 * Word patterns the quality and security rules look for in descriptions. English and Chinese,
 * because the robot-arm guidance this project follows is written in both. Each pattern is
 * documented in docs/lint-rules.md with the rule that uses it; change both together.
 */

/**
 * Usage guidance: when to use the tool, or when not to. Descriptions say it in many words, so the
 * cues are grouped by how they say it rather than listed as fixed phrases; docs/lint-rules.md
 * (quality/description-usage) gives the families and the precision and recall measured on real
 * servers' descriptions (test/lint/usage-corpus.test.ts).
 */
export const USAGE_CUES: Readonly<Record<string, RegExp>> = {
  // "Use when ...", "Use this to ...", "Use read_text_file instead", "Use with caution", "Use get_x first"
  imperative: /\buse (?:this|it|when|to|for|if|after|before|only|once|instead|with|whenever|in)\b|\buse (?:the |a |an )?[\w.'`-]+ (?:instead|first|before|after|to|for|when|with|from)\b|\b(?:call|invoke|run) (?:this|it)?\s*(?:when|after|before|to|first|only|once|whenever)\b|\bprefer (?:this|it|[\w.'`-]+ (?:over|to|for|when))\b/i,
  // "When to use this tool:", "when the user asks", "when you need to", "whenever"
  condition: /\bwhen to use\b|\bwhen (?:the )?(?:user|you|a user|an agent|asked|needed|you need|it is needed)\b|\bwhen(?:ever)? you(?:'re| are)? (?:need|want|have|don't|do not|know|are|must|wish|would)\b|\bif you (?:need|want|have|are|must|wish)\b|\bwhenever\b|\bfor (?:cases|situations|scenarios|tasks|questions|requests) (?:where|when|that|like|about)\b/i,
  // "useful for", "perfect for", "essential for", "helpful for", "designed to", "can be used for"
  suitability: /\b(?:useful|helpful|handy|ideal|perfect|great|good|best|essential|intended|suitable|designed|appropriate|meant|recommended|needed|required) (?:for|when|to|if|in|with)\b|\b(?:typically|commonly|usually|often|mainly|mostly|primarily) used\b|(?:^|[.;:!?]\s*|\b(?:it|this(?: tool)?|and|which|that)\s+)can (?:also )?be used (?:to|for|when|as|in)\b|\bfor use (?:when|with|in)\b/i,
  // "better than screenshot", "cheaper than capturing ...", "instead of", "rather than"
  comparison: /\b(?:better|cheaper|faster|safer|simpler|more (?:efficient|reliable|accurate)|preferable|preferred) than\b|\binstead of\b|\brather than\b/i,
  // "Do not use for ...", "Not for ...", "never call", "avoid"
  negative: /\b(?:do not|don't|never|avoid) (?:use|using|call|calling)\b|\bnot (?:for|to be used|meant|intended|suitable|needed)\b|\bdeprecated\b/i,
  // "before calling ...", "only when ...", "after you ..."
  sequence: /\b(?:before|after) (?:calling|using|running|you|trying|any)\b|\bonly (?:when|if|after|for|once|while)\b/i,
  // 当……时（使用）、适用于、常用于、不要、请勿、之前/之后、先调用、场景、情况下、如果/若需
  chinese: /(?<![相适每])当(?![前天地年日中然初即场作成选下])[^。；]{0,40}?时(?![间刻长区速])|适用于|适合|(?:常|可|主要|通常|一般|多)用于|用于.{0,30}?(?:场景|情况|时)|需要[^。；]{0,20}?时(?![间刻长区速])|不要|请勿|勿用|不适用|不应|仅在|只在|之前|之后|先调用|应先|优先使用|改用|请使用|场景|情况下|如果|若需|若要|时使用|时调用/,
};

/** One regular expression for every {@link USAGE_CUES} family (the rule only asks "any?"). */
export const USAGE_GUIDANCE = new RegExp(Object.values(USAGE_CUES).map((r) => r.source).join('|'), 'i');

/** The family and the words that count as usage guidance in `text`, or undefined when there is none. */
export function findUsageGuidance(text: string): { family: string; cue: string } | undefined {
  for (const [family, pattern] of Object.entries(USAGE_CUES)) {
    const match = pattern.exec(text);
    if (match) return { family, cue: match[0] };
  }
  return undefined;
}

/** Words that state an order between tools. */
export const ORDER_WORDS = /\b(?:after|before|prior to) (?:calling|using|running|invoking|moving|you|it|the (?:arm|robot|gripper|tool|previous|other))\b|\bfollowed by\b|\b(?:call|run|use|invoke) [\w.'\`-]+ first\b|\bmust (?:first|already)\b|\bhas (?:already )?been (?:called|run|moved)\b|之前|之后|前.{0,6}先|先调用|然后调用/i;

/**
 * Unit words that are never ordinary English. Words that also are (the article "a", "second" as an
 * ordinal, "bar", "us", the one-letter SI symbols) count only in a unit's place: UNIT_IN_PLACE.
 */
const UNIT_WORDS = new RegExp([
  String.raw`\b(?:mm|cm|km|nm|µm|um|ms|µs|ns|secs|seconds|minutes|mins|hours|hrs|days|weeks|months|years|hz|khz|mhz|ghz|rpm|newtons?|n·m|kn|kpa|mpa|psi|degrees?|radians?|kg|grams?|mg|lbs?|pounds?|volts?|mv|amps?|amperes?|watts?|kw|joules?|bytes?|kb|mb|gb|tb|kib|mib|gib|bits?|px|pixels?|dpi|percent|percentage|ratio|fraction|factor|celsius|fahrenheit|kelvin|meters?|metres?|millimet(?:er|re)s?|centimet(?:er|re)s?|kilomet(?:er|re)s?|inch(?:es)?|feet|miles?|lines|items|results|entries|records|rows|characters?|chars|tokens?|pages|words|times|attempts|retries|steps|frames|samples|points|epoch|unix|usd|eur|cents?|dollars?)\b`,
  String.raw`[%°℃℉]|m/s|mm/s|rad/s|deg/s|m/s²|m/s\^2`,
  // ranges stated in words or numbers
  String.raw`\bbetween -?\d[\d.,]*\s*(?:and|&)\s*-?\d`,
  String.raw`\bfrom -?\d[\d.,]*\s*to\s*-?\d`,
  String.raw`-?\d[\d.]*\s*(?:-|–|—|~|to|\.\.|到|至)\s*-?\d`,
  String.raw`\bany (?:real |whole )?number\b|\b(?:dimensionless|unitless)\b`,
  String.raw`\b(?:range|at (?:least|most)|minimum|maximum|max(?:imum)?|min(?:imum)?|up to|no more than|positive|non-negative|zero-based|one-based|0-based|1-based)\b`,
  // Chinese: unit, range, and common units
  '单位', '范围', '毫米', '厘米', '米', '毫秒', '秒', '分钟', '小时', '牛', '度', '弧度', '百分', '赫兹', '千克', '克', '个', '次', '条', '最大', '最小', '不超过', '至少', '无单位',
].join('|'), 'i');

/**
 * Where a word that is also ordinary English counts as a unit: after a number, "in", "per", "as", "("
 * or "/" ("5 second", "per second", "in ms"; never "the second operand"). Both unit readings use it:
 * UNIT_OR_RANGE (quality/numeric-unit) and physicalUnitIn (quality/numeric-examples).
 */
const UNIT_PLACE = String.raw`(?:\d\s*|\b(?:in|per|as)\s+|[(/])`;

/** A word that is a unit only in a unit's place ({@link UNIT_PLACE}). */
const UNIT_IN_PLACE = new RegExp(`${UNIT_PLACE}(?:s|sec|second|minute|min|hour|hr|day|week|month|year|ma|pa|bar|deg|rad|us|pt|em|foot|mile|line|item|result|record|row|page|word|point)s?\\b`, 'i');
/** One-letter SI symbols, case-sensitive ("in N", "(m)", "5 A"; never the article in "in a list"). */
const SYMBOL_IN_PLACE = /\d\s*[mngvawjNVAWJ]\b|(?:\b(?:in|per|as)\s+|[(/])(?:[NVAWJ]|m|g)\b/;

/**
 * Units and range statements for numeric parameters: `UNIT_OR_RANGE.test(text)`. "The second
 * operand" or "a value for the gripper" state no unit; "in seconds", "5 second" and "in N" do.
 */
export const UNIT_OR_RANGE = { test: (text: string): boolean => UNIT_WORDS.test(text) || UNIT_IN_PLACE.test(text) || SYMBOL_IN_PLACE.test(text) } as const;

/**
 * Physical units that are never ordinary English, which a model tends to write into the value
 * ("15N", "100mm", "90°") or to confuse (millimetres taken for metres). Counts, fractions and ratios
 * are not here: they have no unit to append.
 */
const PHYSICAL_UNIT_WORDS = new RegExp([
  String.raw`\b(?:newtons?|n·m|newton-met(?:er|re)s?|kn|millimet(?:er|re)s?|centimet(?:er|re)s?|met(?:er|re)s?|kilomet(?:er|re)s?|inch(?:es)?|feet|mm|cm|km|degrees?|deg|radians?|rad|seconds|secs|milliseconds?|ms|minutes|hours|hz|khz|kilograms?|kg|grams?|celsius|fahrenheit|kelvin|volts?|amps?|watts?|pascals?|kpa|psi|rpm|mm/s|m/s|deg/s|rad/s|percent)\b`,
  '[°℃℉%]', '牛顿?', '毫米', '厘米', '米', '秒', '毫秒', '分钟', '度', '弧度', '千克', '公斤', '伏', '瓦', '帕',
].join('|'), 'i');

/** Physical units that are also ordinary English ("the second operand", "a minute change", "a bar chart"): units only in a unit's place. */
const PHYSICAL_UNIT_IN_PLACE = new RegExp(`${UNIT_PLACE}(second|sec|minute|hour|bar)\\b`, 'i');

/**
 * The physical unit a text states, as written ("newtons", "mm", "°", "second" in "per second"), or
 * undefined. "The second operand" states none: an ordinary word counts only in a unit's place, by
 * the same rule as {@link UNIT_OR_RANGE}.
 */
export function physicalUnitIn(text: string): string | undefined {
  const word = PHYSICAL_UNIT_WORDS.exec(text);
  if (word !== null) return word[0];
  return PHYSICAL_UNIT_IN_PLACE.exec(text)?.[1];
}

/** A numeric parameter whose name already says it counts things (`limit`, `max_results`, `page`). */
export const COUNT_LIKE_NAME = /(?:^|_|(?<=[a-z]))(?:count|limit|num|number|page|pages|size|index|offset|top|depth|retries|attempts|results|items|lines|n|k)$/i;

/** Reference-frame statements for coordinates. */
export const FRAME = new RegExp([
  String.raw`\bframe\b`, String.raw`\brelative to\b`, String.raw`\bwith respect to\b`, String.raw`\bw\.r\.t\.`,
  String.raw`\bcoordinate system\b`, String.raw`\b(?:robot |arm )?base(?:[_ ]link)?\b`, String.raw`\bworld\b`,
  String.raw`\b(?:camera|tool|tcp|flange|map|odom|global|local|image|screen|pixel|viewport|page)\s*(?:frame|coordinates?|space)\b`,
  String.raw`\b(?:wgs ?84|latitude|longitude|epsg)\b`,
  '坐标系', '相对', '基座', '基坐标',
].join('|'), 'i');

/** Parameter names that denote coordinates. */
export const COORDINATE_NAME = /^(?:x|y|z|rx|ry|rz|roll|pitch|yaw|qx|qy|qz|qw)$|(?:^|_)(?:position|pose|coordinates?|waypoints?|point|orientation|quaternion)$|(?:Position|Pose|Coordinates?|Point|Orientation)$/;

/** Parameter names that look like secrets or credentials. */
export const SECRET_NAME = /pass(?:word|wd|phrase)?$|^pwd$|secret|token|api[_-]?key|apikey|(?:^|_|-)key$|[a-z]Key$|^key$|access[_-]?key|private[_-]?key|credential|^auth(?:orization)?$|cookie|session[_-]?id|^ssn$|^otp$|^pin$/i;

/** Names of the parameter that selects "which operation" in an all-in-one tool. */
export const SWITCH_NAME = /^(?:action|actions|operation|op|mode|command|cmd|verb|method|task|function|func|kind|subcommand|operation_type|action_type)$/i;

/** Generic tool names that say nothing about which tool to pick. */
export const GENERIC_TOOL_NAMES: ReadonlySet<string> = new Set([
  'search', 'get', 'run', 'execute', 'exec', 'call', 'query', 'do', 'process', 'handle', 'tool', 'action',
  'invoke', 'fetch', 'list', 'update', 'create', 'delete', 'help', 'control', 'manage', 'perform', 'main', 'api', 'request',
]);

/** Short name segments that are fine even though they are short. */
export const ALLOWED_SHORT_WORDS: ReadonlySet<string> = new Set([
  'x', 'y', 'z', 'w', 'h', 'r', 'g', 'b', 'a', 'i', 'j', 'k', 'n', 'q', 'id', 'ip', 'os', 'ui', 'db', 'io', 'ok', 'to', 'at', 'by',
  'of', 'in', 'on', 'up', 'is', 'as', 'or', 'if', 'no', 'rx', 'ry', 'rz', 'qx', 'qy', 'qz', 'qw', 'ms', 'mm', 'cm', 'km', 'kg', 'hz', 'v2', 'v1',
  'v3', 'ai', 'pr', 'ci', 'cd', 'vm', 'tz', 'dm', 'fs', 'gb', 'mb', 'kb', 'url', 'uri', 'api', 'sql', 'csv', 'pdf', 'html', 'json', 'xml', 'dns',
  'ssh', 'tcp', 'udp', 'http', 'https', 'utc', 'iso', 'cpu', 'gpu', 'ram', 'sha', 'md5', 'jwt', 'uid', 'gid', 'pid', 'ttl', 'max', 'min',
  'src', 'dst', 'ref', 'app', 'env', 'tag', 'log', 'raw', 'new', 'old', 'all', 'any', 'end', 'key', 'row', 'col', 'sub', 'top', 'ft', 'fx', 'fy', 'fz',
  'mx', 'my', 'mz', 'en', 'zh', 'de', 'fr', 'es', 'ja', 'us', 'eu', 'uk', 'dir', 'git', 'npm', 'eta', 'rgb', 'hex', 'pos',
]);

/** Cryptic abbreviations and the words they stand for. */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  cfg: 'config', conf: 'config', tmp: 'temporary', msg: 'message', val: 'value', num: 'number', cnt: 'count', idx: 'index',
  str: 'string', ptr: 'pointer', usr: 'user', pwd: 'password', qty: 'quantity', amt: 'amount', desc: 'description',
  fn: 'function', obj: 'object', arr: 'array', res: 'result', req: 'request', resp: 'response', ctx: 'context', tgt: 'target',
  spd: 'speed', vel: 'velocity', acc: 'acceleration', frc: 'force', strat: 'strategy', tmo: 'timeout', prm: 'parameter', params: 'parameters',
};

/** Instructions aimed at the model (prompt injection), after mcp-scan E001/E003. */
export const INJECTION_PHRASES = new RegExp([
  String.raw`\bignore (?:all |any |the )?(?:previous|prior|above|earlier|other|preceding|system)\b`,
  String.raw`\bdisregard (?:all |any |the )?(?:previous|prior|above|earlier|other|system)\b`,
  String.raw`\bforget (?:all |any |everything |your )?(?:previous|prior|above|instructions)\b`,
  String.raw`\b(?:do not|don't|never) (?:tell|inform|mention|reveal|show|notify|alert|let) (?:this |it )?(?:to )?(?:the )?(?:user|human|operator)\b`,
  String.raw`\bwithout (?:telling|informing|notifying|alerting|asking) (?:the )?(?:user|human|operator)\b`,
  String.raw`\b(?:before|prior to) (?:using|calling|invoking|running) (?:any|every|all) (?:other )?tools?\b`,
  String.raw`\b(?:always|must) (?:first )?(?:call|use|invoke|run) (?:this|me)\b`,
  String.raw`\byou (?:must|should|have to|are required to) (?:always|never|first|secretly)\b`,
  String.raw`\b(?:new|updated|override|real) (?:system )?instructions?\s*:`,
  String.raw`</?(?:important|system|instructions?|secret|hidden)>`,
  String.raw`\b(?:system prompt|jailbreak|developer mode)\b`,
  String.raw`\bsecretly\b|\bsilently (?:send|upload|include|add|forward|copy)\b`,
  String.raw`\bthis tool (?:replaces|overrides|supersedes)\b`,
  '忽略(?:之前|以上|前面|所有)', '不要告诉用户', '不要让用户知道', '在使用任何其他工具之前',
].join('|'), 'i');

/** Wording that tries to steer tool choice or raise urgency (mcp-scan W001 style). */
export const PERSUASION_WORDS = /\b(?:very important|extremely important|crucial|critical(?:ly)?|mandatory|urgent|highest priority|best tool|always prefer this|must always|absolutely)\b|<important>|\bIMPORTANT\b|务必|必须始终|最重要/;

/** Hints at reading or sending data somewhere it should not go. */
export const EXFILTRATION_HINTS = new RegExp([
  String.raw`(?:~|\$HOME|%USERPROFILE%)[/\\]\.(?:ssh|aws|gnupg|kube|docker|config|npmrc|netrc)`,
  String.raw`\bid_(?:rsa|ed25519|ecdsa|dsa)\b`, String.raw`/etc/(?:passwd|shadow)\b`, String.raw`\.env\b`, String.raw`\bmcp\.json\b`,
  String.raw`\bcredentials?(?:\.json)?\b.{0,40}\b(?:send|include|pass|read|upload|attach)`,
  String.raw`\b(?:send|upload|post|forward|transmit|exfiltrate|leak|copy)\b.{0,60}\b(?:to|into) (?:https?://|the (?:following|this) (?:url|endpoint|address|server)|[\w.+-]+@[\w-]+\.)`,
  String.raw`\b(?:include|pass|put|add|append)\b.{0,40}\b(?:conversation|chat history|previous messages|system prompt|api keys?|passwords?|secrets?|tokens?|private keys?|environment variables?)\b.{0,40}\b(?:in|into|as)\b.{0,30}\b(?:parameter|argument|field|request|note|comment|sidenote)`,
  String.raw`\bwebhook\.site\b|\brequestbin\b|\bngrok\.io\b|\bpastebin\.com\b`,
].join('|'), 'i');

/** URLs and e-mail addresses. */
export const URL_OR_EMAIL = /\bhttps?:\/\/[^\s"'<>)]+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/gi;

/**
 * Invisible and direction-changing characters: bidi controls and isolates, zero-width characters,
 * word joiner and invisible operators, soft hyphen, Mongolian vowel separator, BOM, Unicode tag
 * characters (which can carry hidden ASCII), variation selectors, and C0/C1 controls other than
 * tab, line feed and carriage return.
 */
export const HIDDEN_CHARACTER = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

/** A name for a hidden character, for messages. */
export function describeCodePoint(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (cp >= 0x202a && cp <= 0x202e) return `${hex} (bidirectional override/embedding)`;
  if (cp >= 0x2066 && cp <= 0x2069) return `${hex} (bidirectional isolate)`;
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) return `${hex} (direction mark)`;
  if (cp >= 0x200b && cp <= 0x200d) return `${hex} (zero-width character)`;
  if (cp === 0xfeff) return `${hex} (zero-width no-break space / BOM)`;
  if (cp >= 0xe0000 && cp <= 0xe007f) return `${hex} (Unicode tag character, can hide ASCII text)`;
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return `${hex} (variation selector)`;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return `${hex} (control character)`;
  return `${hex} (invisible formatting character)`;
}

/**
 * Lower-case words of a text for similarity checks: Latin words of 2+ letters, and each CJK
 * character as its own token (Chinese has no spaces).
 */
export function wordsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9]{2,}|[\u4e00-\u9fff]/g);
  return words ?? [];
}

/** Splits an identifier into lower-case segments: `graspStrategy`, `grasp_strategy`, `grasp-strategy`. */
export function nameSegments(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.\-]+/)
    .filter((s) => s.length > 0)
    .map((s) => s.toLowerCase());
}

/** The naming style of an identifier, or `mixed`. */
export type NameStyle = 'snake_case' | 'camelCase' | 'PascalCase' | 'kebab-case' | 'dot.case' | 'lower' | 'SCREAMING_SNAKE' | 'mixed';

/** Classifies an identifier's naming style. A single lower-case word is `lower` (fits any lower style). */
export function nameStyle(name: string): NameStyle {
  if (/^[a-z][a-z0-9]*$/.test(name)) return 'lower';
  if (/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(name)) return 'snake_case';
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(name)) return 'SCREAMING_SNAKE';
  if (/^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/.test(name)) return 'camelCase';
  if (/^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*$/.test(name)) return 'PascalCase';
  if (/^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/.test(name)) return 'kebab-case';
  if (/^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+$/.test(name)) return 'dot.case';
  return 'mixed';
}

/** Length with CJK characters counted double: one Chinese character carries about a word. */
export function weightedLength(text: string): number {
  let length = 0;
  for (const ch of text.trim()) length += /[\u3000-\u9fff\uac00-\ud7af]/.test(ch) ? 2 : 1;
  return length;
}
