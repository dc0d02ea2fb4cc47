import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useStreamGroups, useStreamList } from '../../streams/api.ts';
import type { StreamScope } from './api.ts';

/** One stream or one stream group; neither is every stream of the user (an admin: every stream). */
export const StreamScopePicker = ({
  scope,
  onChange,
}: {
  scope: StreamScope;
  onChange: (scope: StreamScope) => void;
}) => {
  const { t } = useTranslation();
  const streams = useStreamList({ page: 1, limit: 100 });
  const groups = useStreamGroups();
  return (
    <>
      <Select<number>
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        aria-label={t('monitorStream.stream')}
        placeholder={t('monitorStream.stream')}
        style={{ width: 220 }}
        value={scope.stream_id}
        loading={streams.isFetching}
        onChange={(stream_id) => onChange(stream_id === undefined ? {} : { stream_id })}
        options={(streams.data?.list ?? []).map((stream) => ({ value: stream.id, label: stream.name }))}
      />
      <Select<number>
        allowClear
        aria-label={t('monitorStream.group')}
        placeholder={t('monitorStream.group')}
        style={{ width: 180 }}
        value={scope.group_id}
        loading={groups.isFetching}
        onChange={(group_id) => onChange(group_id === undefined ? {} : { group_id })}
        options={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
      />
    </>
  );
};
