import { describe, expect, it } from 'vitest';
import { parseExposition } from '../../../master/src/modules/metrics/exposition-parser.ts';
import { parseStubStatus, renderExposition } from './exporter.ts';

describe('the agent exposition', () => {
  it('writes families a strict parser reads back, label values escaped', () => {
    const text = renderExposition([
      {
        name: 'rampart_agent_test_total',
        help: 'A help text with a backslash \\ and\na newline.',
        type: 'counter',
        samples: [
          { labels: { kind: 'a "quoted" \\ value\nover two lines' }, value: 3 },
          { labels: { kind: 'plain' }, value: 0.5 },
        ],
      },
      { name: 'rampart_agent_test_gauge', help: 'Not a number yet.', type: 'gauge', samples: [{ value: Number.NaN }] },
    ]);
    const { samples, types } = parseExposition(text);
    expect(types.get('rampart_agent_test_total')).toBe('counter');
    expect(samples[0]).toEqual({
      name: 'rampart_agent_test_total',
      labels: { kind: 'a "quoted" \\ value\nover two lines' },
      value: 3,
    });
    expect(samples[1]?.value).toBe(0.5);
    expect(samples[2]?.value).toBeNaN();
    expect(text.endsWith('\n')).toBe(true);
  });

  it("reads nginx's stub_status page, and nothing else", () => {
    const page =
      'Active connections: 3 \nserver accepts handled requests\n 16 15 42 \nReading: 0 Writing: 1 Waiting: 2 \n';
    expect(parseStubStatus(page)).toEqual({
      active: 3,
      accepted: 16,
      handled: 15,
      requests: 42,
      reading: 0,
      writing: 1,
      waiting: 2,
    });
    expect(parseStubStatus('<html>502 Bad Gateway</html>')).toBeNull();
  });
});
