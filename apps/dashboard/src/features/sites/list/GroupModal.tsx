import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import Button from 'antd/es/button';
import Input from 'antd/es/input/Input';
import Modal from 'antd/es/modal/Modal';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Group {
  id: number;
  name: string;
}

interface GroupModalProps {
  open: boolean;
  onClose: () => void;
  groups: readonly Group[];
  actions: {
    pending: boolean;
    create: (name: string) => Promise<unknown>;
    rename: (id: number, name: string) => Promise<unknown>;
    remove: (id: number) => Promise<unknown>;
  };
}

const GroupRow = ({ group, actions }: { group: Group; actions: GroupModalProps['actions'] }) => {
  const { t } = useTranslation();
  const [name, setName] = useState(group.name);
  return (
    <div style={{ display: 'flex', gap: 8, marginBottom: 8 }} data-testid={`group-row:${group.id}`}>
      <Space.Compact style={{ flex: 1 }}>
        <Input
          aria-label={t('sites.group.nameOf', { name: group.name })}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Button
          disabled={name.trim() === '' || name === group.name}
          onClick={() => void actions.rename(group.id, name.trim()).catch(() => undefined)}
        >
          {t('sites.group.rename')}
        </Button>
      </Space.Compact>
      <Popconfirm
        title={t('sites.group.confirmDelete', { name: group.name })}
        okText={t('sites.confirm')}
        cancelText={t('sites.cancel')}
        onConfirm={() => actions.remove(group.id).catch(() => undefined)}
      >
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('sites.group.deleteOf', { name: group.name })}
        />
      </Popconfirm>
    </div>
  );
};

/** Create, rename and delete groups; members of a deleted group return to no group. */
export const GroupModal = ({ open, onClose, groups, actions }: GroupModalProps) => {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const create = async () => {
    await actions.create(name.trim());
    setName('');
  };
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('sites.group.title')}>
      <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
        <Input
          aria-label={t('sites.group.newName')}
          placeholder={t('sites.group.newName')}
          value={name}
          maxLength={64}
          onChange={(e) => setName(e.target.value)}
        />
        <Button
          type="primary"
          loading={actions.pending}
          disabled={name.trim() === ''}
          onClick={() => void create().catch(() => undefined)}
        >
          {t('sites.group.create')}
        </Button>
      </Space.Compact>
      {groups.map((group) => (
        <GroupRow key={`${group.id}:${group.name}`} group={group} actions={actions} />
      ))}
    </Modal>
  );
};
