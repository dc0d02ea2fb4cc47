import { describe, expect, it } from 'vitest';
import { siteFieldPath } from '../sitePayload.ts';
import { errorPagesBody, errorPagesValues } from './errorPageValues.ts';

describe('error page values', () => {
  it('reads a site that never set them as none of its own, and writes back none', () => {
    expect(errorPagesValues(undefined)['404']).toEqual({ enabled: false, html: '' });
    expect(errorPagesBody(errorPagesValues(undefined))).toEqual({});
  });

  it('sends only the switched-on pages, keeping a switched-off page’s HTML in the form', () => {
    const values = errorPagesValues({ '404': '<h1>Lost</h1>', waf: '<h1>No</h1>' });
    expect(errorPagesBody(values)).toEqual({ '404': '<h1>Lost</h1>', waf: '<h1>No</h1>' });
    values.waf.enabled = false;
    expect(values.waf.html).toBe('<h1>No</h1>');
    expect(errorPagesBody(values)).toEqual({ '404': '<h1>Lost</h1>' });
  });

  it('maps a page’s refusal onto its box, and leaves one about the whole object to the popup', () => {
    expect(siteFieldPath(['error_pages', 404])).toEqual(['error_pages', '404', 'html']);
    expect(siteFieldPath(['error_pages', 'waf'])).toEqual(['error_pages', 'waf', 'html']);
    expect(siteFieldPath(['error_pages'])).toEqual([]);
    expect(siteFieldPath(['error_pages', 418])).toEqual([]);
  });
});
