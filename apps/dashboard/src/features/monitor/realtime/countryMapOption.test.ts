import { describe, expect, it } from 'vitest';
import { countryMapOption } from './countryMapOption.ts';

describe('the world map of requests', () => {
  it('shades each country by its requests, leaves the unknown country out, and names countries in the language', () => {
    const option = countryMapOption(
      [
        { key: 'CN', requests: 120, bytes_out: 1 },
        { key: '', requests: 500, bytes_out: 1 },
        { key: 'US', requests: 30, bytes_out: 1 },
      ],
      'en-US',
      'Requests',
    );
    expect(option.series[0]?.data).toEqual([
      { name: 'CN', value: 120 },
      { name: 'US', value: 30 },
    ]);
    expect(option.visualMap.max).toBe(120);
    expect(option.tooltip.formatter({ name: 'US', value: 1234 })).toBe('United States (US)<br/>Requests: 1,234');
    const chinese = countryMapOption([], 'zh-CN', '请求数');
    expect(chinese.visualMap.max).toBe(1);
    expect(chinese.tooltip.formatter({ name: 'CN' })).toBe('中国 (CN)<br/>请求数: 0');
  });
});
