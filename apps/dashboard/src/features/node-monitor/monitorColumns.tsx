import type { IpState, IpSwitchEntry, NodeIpStateEntry, ProbeVote } from '@rampart/contracts';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { TFunction } from 'i18next';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

const StateTag = ({ state, t }: { state: IpState; t: TFunction }) => (
  <Tag color={state === 'up' ? 'green' : 'red'}>{t(`nodeMonitor.state.${state}`)}</Tag>
);

/** Each probe's last result and streak, with its detail on hover. */
const Votes = ({ votes, t }: { votes: readonly ProbeVote[]; t: TFunction }) =>
  votes.length === 0 ? (
    <span>{t('nodeMonitor.none')}</span>
  ) : (
    votes.map((vote) => (
      <Tooltip key={vote.probe} title={vote.detail}>
        <Tag color={vote.ok ? 'default' : 'orange'}>
          {t('nodeMonitor.vote.streak', {
            probe: vote.probe === 'master' ? t('nodeMonitor.vote.master') : vote.probe,
            result: t(vote.ok ? 'nodeMonitor.vote.ok' : 'nodeMonitor.vote.failed'),
            streak: vote.streak,
          })}
        </Tag>
      </Tooltip>
    ))
  );

export const stateColumns = (t: TFunction, language: string): ColumnsType<NodeIpStateEntry> => {
  const format = dateTimeFormat(language);
  return [
    { key: 'ip', dataIndex: 'ip', title: t('nodeMonitor.column.ip'), onCell: () => NO_WRAP },
    { key: 'node', dataIndex: 'node_name', title: t('nodeMonitor.column.node') },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('nodeMonitor.column.state'),
      render: (state: IpState) => <StateTag state={state} t={t} />,
    },
    {
      key: 'since',
      dataIndex: 'changed_at',
      title: t('nodeMonitor.column.since'),
      onCell: () => NO_WRAP,
      render: (at: string | null) => (at === null ? t('nodeMonitor.none') : format.format(new Date(at))),
    },
    {
      key: 'votes',
      dataIndex: 'votes',
      title: t('nodeMonitor.column.votes'),
      render: (votes: ProbeVote[]) => <Votes votes={votes} t={t} />,
    },
  ];
};

export const switchColumns = (t: TFunction, language: string): ColumnsType<IpSwitchEntry> => {
  const format = dateTimeFormat(language);
  const orNone = (text: string) => text || t('nodeMonitor.none');
  return [
    {
      key: 'when',
      dataIndex: 'created_at',
      title: t('nodeMonitor.column.when'),
      onCell: () => NO_WRAP,
      render: (at: string) => format.format(new Date(at)),
    },
    { key: 'ip', dataIndex: 'ip', title: t('nodeMonitor.column.ip'), onCell: () => NO_WRAP },
    { key: 'node', dataIndex: 'node_name', title: t('nodeMonitor.column.node') },
    { key: 'lineGroup', dataIndex: 'line_group', title: t('nodeMonitor.column.lineGroup'), render: orNone },
    { key: 'line', dataIndex: 'line', title: t('nodeMonitor.column.line'), render: orNone },
    {
      key: 'from',
      dataIndex: 'from',
      title: t('nodeMonitor.column.from'),
      render: (state: IpState) => <StateTag state={state} t={t} />,
    },
    {
      key: 'to',
      dataIndex: 'to',
      title: t('nodeMonitor.column.to'),
      render: (state: IpState) => <StateTag state={state} t={t} />,
    },
    { key: 'reason', dataIndex: 'reason', title: t('nodeMonitor.column.reason') },
    {
      key: 'votes',
      dataIndex: 'votes',
      title: t('nodeMonitor.column.votes'),
      render: (votes: ProbeVote[]) => <Votes votes={votes} t={t} />,
    },
  ];
};
