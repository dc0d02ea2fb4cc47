import type { FormInstance } from 'antd/es/form';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/http/apiError.ts';
import type { HttpClient } from '../../shared/http/client.ts';
import { fieldErrorHandler } from './serverErrors.ts';
import { siteFieldPath } from './sitePayload.ts';

const setUp = () => {
  const form = { setFields: vi.fn(), scrollToField: vi.fn() };
  const http = { notify: vi.fn() };
  const handle = fieldErrorHandler(
    form as unknown as FormInstance,
    http as unknown as HttpClient,
    ['domainsText', 'origin_host'],
    siteFieldPath,
  );
  return { form, http, handle };
};

const invalid = (msg: string) => new ApiError('invalid_param', msg, 400, '/v1/sites');

describe('server errors on forms', () => {
  it('show a message that names a field of the form under that field', () => {
    const { form, http, handle } = setUp();
    handle(invalid('body/origin_host: must be empty or a host name'));
    expect(form.setFields).toHaveBeenCalledWith([{ name: ['origin_host'], errors: ['must be empty or a host name'] }]);
    handle(invalid('body/domains/1: must be a domain'));
    expect(form.setFields).toHaveBeenLastCalledWith([{ name: ['domainsText'], errors: ['must be a domain'] }]);
    expect(http.notify).not.toHaveBeenCalled();
  });

  it('pop up any other failure', () => {
    const { form, http, handle } = setUp();
    const conflict = new ApiError('conflict', 'the certificate is used by 2 site(s); change them first', 409, '/x');
    handle(conflict);
    handle(invalid('ids: site 9 does not exist'));
    expect(http.notify).toHaveBeenCalledTimes(2);
    expect(form.setFields).not.toHaveBeenCalled();
  });
});
