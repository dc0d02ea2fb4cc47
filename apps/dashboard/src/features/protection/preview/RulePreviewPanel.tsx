import type { PreviewRule } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { DisabledContextProvider } from 'antd/es/config-provider/DisabledContext';
import Form, { type FormInstance } from 'antd/es/form';
import Select from 'antd/es/select';
import Spin from 'antd/es/spin';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../shared/http/apiError.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { serverFieldError } from '../../sites/edgeRules.ts';
import { useRulePreview } from '../api.ts';
import { useUserId } from '../shared/owners.ts';
import { SitePicker } from '../shared/SitePicker.tsx';
import { readLastSite, writeLastSite } from './lastSite.ts';
import { PreviewAnswer } from './PreviewAnswer.tsx';
import { DEFAULT_PREVIEW_HOURS, errorTarget, type PanelControl, PREVIEW_HOURS, previewBody } from './previewRule.ts';

/** Something the panel's own controls lack or the master refused in them. */
export interface PanelProblem {
  control: PanelControl;
  text: string;
}

export interface RulePreviewPanelProps {
  /** The site the editor belongs to; without one the panel offers a site picker. */
  siteId?: number;
  /** The form fields the draft is made of: checked with the form's own rules before the call. */
  fields: readonly string[];
  /** The draft as Save would send it, from the checked form; a problem when the kind's own controls lack something. */
  toRule: (form: FormInstance) => PreviewRule | PanelProblem;
  /** Controls of the kind's own (a match's filter and action). */
  children?: ReactNode;
  /** What those controls hold: an answer is dropped when it changes, as when the draft does. */
  settings?: string;
}

const box = { border: '1px solid #f0f0f0', borderRadius: 8, padding: 16, marginTop: 16 } as const;
const controls = { display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' } as const;

/** "Preview on recent traffic": what the editor's draft would have done to a site's requests; nothing is saved. */
export const RulePreviewPanel = ({ siteId, fields, toRule, children, settings }: RulePreviewPanelProps) => {
  const { t } = useTranslation();
  const http = useHttp();
  const form = Form.useFormInstance();
  const userId = useUserId();
  const preview = useRulePreview();
  const [pickedSite, setPickedSite] = useState(() => (siteId === undefined ? readLastSite(userId) : undefined));
  const [hours, setHours] = useState<number>(DEFAULT_PREVIEW_HOURS);
  const [problem, setProblem] = useState<PanelProblem | null>(null);
  const site = siteId ?? pickedSite;
  const draft = Form.useWatch((values) => JSON.stringify(fields.map((field) => values[field])), {
    form,
    preserve: true,
  });
  const { reset } = preview;
  // An answer is about the draft it was asked for: once the draft changes it would mislead.
  const asked = `${draft}|${site}|${hours}|${settings ?? ''}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the answer goes whenever `asked` changes
  useEffect(() => reset(), [asked, reset]);

  const pickSite = (next: number | undefined) => {
    setPickedSite(next);
    if (next !== undefined) writeLastSite(userId, next);
  };

  const onError = (error: ApiError) => {
    const named = serverFieldError(error.message);
    const target = named ? errorTarget(named.name) : undefined;
    const path = target && 'form' in target ? target.form : undefined;
    if (named && target && 'control' in target) {
      setProblem({ control: target.control, text: named.text });
    } else if (named && path && fields.includes(String(path[0]))) {
      form.setFields([{ name: path, errors: [named.text] }]);
      form.scrollToField(path);
    } else {
      http.notify(error);
    }
  };

  const run = async () => {
    setProblem(null);
    if (site === undefined) {
      setProblem({ control: 'site', text: t('protection.preview.pickSite') });
      return;
    }
    try {
      await form.validateFields(
        fields.map((field) => [field]),
        { recursive: true },
      );
    } catch (invalid) {
      const first = (invalid as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) form.scrollToField(first.name);
      return;
    }
    const rule = toRule(form);
    if ('control' in rule) setProblem(rule);
    else preview.mutate({ body: previewBody(site, hours, rule), options: { onError } });
  };

  return (
    // A system row is read-only in its drawer, yet previewing it changes nothing.
    <DisabledContextProvider disabled={false}>
      <section style={box} data-testid="rule-preview">
        <h4 style={{ marginTop: 0 }}>{t('protection.preview.title')}</h4>
        <p style={{ color: 'rgba(0,0,0,0.45)' }}>{t('protection.preview.help')}</p>
        <div style={controls}>
          {siteId === undefined && (
            <SitePicker
              aria-label={t('protection.preview.control.site')}
              value={pickedSite}
              onChange={pickSite}
              style={{ width: 220 }}
            />
          )}
          <Select<number>
            aria-label={t('protection.preview.control.hours')}
            value={hours}
            onChange={setHours}
            style={{ width: 140 }}
            options={PREVIEW_HOURS.map((value) => ({
              value,
              label: t('protection.preview.lastHours', { hours: value }),
            }))}
          />
          {children}
          <Button loading={preview.isPending} onClick={() => void run()} data-testid="rule-preview-run">
            {t('protection.preview.run')}
          </Button>
        </div>
        {problem && (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 12 }}
            data-testid="rule-preview-problem"
            title={t('protection.preview.problem', {
              field: t(`protection.preview.control.${problem.control}`),
              text: problem.text,
            })}
          />
        )}
        {preview.isPending && (
          <div style={{ padding: 24, textAlign: 'center' }} data-testid="rule-preview-loading">
            <Spin />
            <div style={{ color: 'rgba(0,0,0,0.45)', marginTop: 8 }}>{t('protection.preview.running')}</div>
          </div>
        )}
        {preview.data && preview.variables && (
          <PreviewAnswer answer={preview.data} rule={preview.variables.body.rule} />
        )}
      </section>
    </DisabledContextProvider>
  );
};
