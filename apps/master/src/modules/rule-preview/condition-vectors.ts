import { readFileSync } from 'node:fs';
import type { Condition } from '@rampart/contracts';

/** The condition cases the edge's Lua tests run too (apps/agent/lua/test/condition-vectors.json). */
export interface ConditionVector {
  name: string;
  condition: Condition;
  /** nginx variables: request_uri is what the access log keeps, uri and args what nginx derives from it. */
  request: Record<string, string>;
  expected: boolean;
  /** The access log does not keep what the condition reads. */
  log_lacks?: boolean;
}

/** A $request_uri and the $uri (null: nginx answers 400) and $args nginx derives from it. */
export interface RequestLine {
  request_uri: string;
  uri: string | null;
  args: string;
}

const FILE = new URL('../../../../agent/lua/test/condition-vectors.json', import.meta.url);

interface VectorFile {
  defaults: Record<string, string>;
  cases: ConditionVector[];
  request_lines: RequestLine[];
}

const vectorFile = () => JSON.parse(readFileSync(FILE, 'utf8')) as VectorFile;

/** Every case, its request filled from the file's defaults. */
export function conditionVectors(): ConditionVector[] {
  const file = vectorFile();
  return file.cases.map((vector) => ({ ...vector, request: { ...file.defaults, ...vector.request } }));
}

/** The file's further request lines. */
export const requestLines = (): RequestLine[] => vectorFile().request_lines;

/** The access-log line of a case's request, as the edge would have written it. */
export const vectorLogLine = (request: Record<string, string>) => ({
  client_ip: request.remote_addr ?? '',
  method: request.request_method ?? '',
  host: request.host ?? '',
  uri: request.request_uri ?? '',
  user_agent: request.http_user_agent ?? '',
  referer: request.http_referer ?? '',
  country: request.rampart_country ?? '',
});
