/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** As Prometheus reads a value (Go's ParseFloat): special values in any case (prom-client writes "Nan"). */
function parseValue(text: string) {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Number.POSITIVE_INFINITY;
  if (lower === '-inf') return Number.NEGATIVE_INFINITY;
  if (lower === 'nan') return Number.NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a value: ${text}`);
  return value;
}

/**
 * Reads the text format (version 0.0.4) strictly: each line a comment, HELP, TYPE or sample; each
 * sample's family typed before it; label values unescaped. Throws on anything else.
 */
export function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const typed = line.match(new RegExp(`^# TYPE (${NAME}) (\\w+)$`));
    if (typed?.[1] && typed[2]) {
      if (!TYPES.has(typed[2])) throw new Error(`unknown type: ${line}`);
      if (types.has(typed[1])) throw new Error(`typed twice: ${typed[1]}`);
      types.set(typed[1], typed[2]);
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = line.match(SAMPLE);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not a sample: ${line}`);
    const name = match[1];
    const family = [...types.keys()].find(
      (family) => name === family || ['_bucket', '_sum', '_count', '_total'].some((end) => name === family + end),
    );
    if (!family) throw new Error(`sample before its TYPE: ${line}`);
    const labels: Record<string, string> = {};
    const body = match[2] ?? '';
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const label = LABEL.exec(body);
      if (!label?.[1] || label[2] === undefined) throw new Error(`bad labels: ${line}`);
      labels[label[1]] = label[2].replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name, labels, value: parseValue(match[3]) });
  }
  return { samples, types };
}

/** The value of the sample named `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  const found = samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return found?.value ?? 0;
}
