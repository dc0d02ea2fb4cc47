import type { FormInstance } from 'antd/es/form';
import type { ApiError } from '../../shared/http/apiError.ts';
import type { HttpClient } from '../../shared/http/client.ts';
import { type FieldPath, serverFieldError } from './edgeRules.ts';

/**
 * An `onError` for a form's save call: a message that names one of the form's fields shows next to
 * that field; any other failure is the usual popup.
 */
export const fieldErrorHandler =
  (
    form: FormInstance,
    http: HttpClient,
    fields: readonly string[],
    toPath: (name: FieldPath) => FieldPath = (name) => name,
  ) =>
  (error: ApiError): void => {
    const named = serverFieldError(error.message);
    const path = named && toPath(named.name);
    if (named && path && fields.includes(String(path[0]))) {
      form.setFields([{ name: path, errors: [named.text] }]);
      form.scrollToField(path);
      return;
    }
    http.notify(error);
  };
