import type { Stream } from '@rampart/contracts';
import type { FormInstance } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import type { ApiError } from '../../shared/http/apiError.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { isPackageRequired } from '../sites/package/packageStanding.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useStreamActions } from './api.ts';
import { STREAM_FIELDS } from './StreamFields.tsx';
import { changedStreamFields, type StreamDraft, streamBody } from './streamPayload.ts';

/**
 * Creates a stream, or saves the changed fields of one; a conflict shows under the listen port, and a
 * refusal for want of a package goes to `onPackageRequired`.
 */
export const useStreamSave = (
  form: FormInstance<StreamDraft>,
  stream: Stream | undefined,
  onPackageRequired?: () => void,
) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useStreamActions();
  const [saving, setSaving] = useState(false);
  const save = async (draft: StreamDraft): Promise<boolean> => {
    const onFieldError = fieldErrorHandler(form, http, STREAM_FIELDS);
    const onError = (error: ApiError) =>
      onPackageRequired && isPackageRequired(error) ? onPackageRequired() : onFieldError(error);
    setSaving(true);
    try {
      if (stream) {
        const body = changedStreamFields(stream, draft);
        if (Object.keys(body).length > 0) await actions.update(stream.id, body, { onError });
      } else {
        await actions.create(streamBody(draft), { onError });
      }
      feedback.success(t('sites.saved'));
      return true;
    } catch {
      return false;
    } finally {
      setSaving(false);
    }
  };
  return { save, saving };
};
