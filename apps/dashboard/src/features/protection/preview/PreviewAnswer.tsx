import type { PreviewRule, RulePreview } from '@rampart/contracts';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { NotEvaluatedAlert } from './NotEvaluatedAlert.tsx';
import { PreviewCrossings, PreviewSamples, PreviewTops } from './PreviewTables.tsx';
import { PREVIEW_OUTCOMES } from './previewRule.ts';

const sentenceKey = (answer: RulePreview): string => {
  if (answer.stopped === 0) return 'protection.preview.blockedNone';
  if (answer.stopped === 1) return 'protection.preview.blockedOne';
  return answer.stopped_addresses === 1 ? 'protection.preview.blockedFromOne' : 'protection.preview.blocked';
};

/** What the draft would have done: the sentence, the outcomes, what could not be told, the top lists and samples. */
export const PreviewAnswer = ({ answer, rule }: { answer: RulePreview; rule: PreviewRule }) => {
  const { t, i18n } = useTranslation();
  const numbers = new Intl.NumberFormat(i18n.language);
  const number = (value: number) => numbers.format(value);
  return (
    <div data-testid="rule-preview-answer" style={{ marginTop: 16 }}>
      <p style={{ fontSize: 16, fontWeight: 500, marginBottom: 8 }} data-testid="rule-preview-sentence">
        {t(sentenceKey(answer), {
          hours: answer.hours,
          requests: number(answer.stopped),
          addresses: number(answer.stopped_addresses),
        })}
      </p>
      <p style={{ marginBottom: 8 }} data-testid="rule-preview-matched">
        {t('protection.preview.matched', {
          matched: number(answer.matched),
          scanned: number(answer.scanned),
          addresses: number(answer.addresses),
        })}
      </p>
      <div style={{ marginBottom: 12 }} data-testid="rule-preview-outcomes">
        {PREVIEW_OUTCOMES.map((outcome) => (
          <Tag key={outcome}>
            {t('protection.preview.outcomeCount', {
              outcome: t(`protection.preview.outcome.${outcome}`),
              value: number(answer.outcomes[outcome] ?? 0),
            })}
          </Tag>
        ))}
      </div>
      <NotEvaluatedAlert items={answer.not_evaluated} rule={rule} />
      <PreviewTops top={answer.top} number={number} />
      <PreviewCrossings crossings={answer.rate_crossings} number={number} />
      <PreviewSamples samples={answer.samples} />
    </div>
  );
};
