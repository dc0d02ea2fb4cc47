import type { geoipEnUS } from './en-US.ts';

/** 运维页的 GeoIP 数据库部分。 */
export const geoipZhCN: typeof geoipEnUS = {
  geoip: {
    tab: 'GeoIP 数据库',
    help: '边缘节点用这个 MaxMind 格式的数据库（.mmdb）查询每个客户端地址所在的国家/地区：用于 ACL 和 CC 规则的国家/地区条件，以及访问日志中的国家/地区。上传更新的或商业版数据库即可替换内置的数据库。',
    none: '没有 GeoIP 数据库：国家/地区条件不会成立，日志中也没有国家/地区。',
    source: '来源',
    sourceBundled: '主控内置',
    sourceUploaded: '已上传',
    name: '文件',
    type: '数据库类型',
    sha256: 'SHA-256',
    size: '大小',
    builtAt: '生成时间',
    uploadedAt: '上传时间',
    file: 'MaxMind 数据库文件（.mmdb）',
    fileRule: '请选择一个 .mmdb 文件',
    upload: '上传',
    uploaded: '数据库已替换，边缘节点将随下一次配置加载它。',
    restore: '改用内置数据库',
    restoreConfirm: '用主控内置的数据库替换已上传的数据库？',
    restored: '已重新使用内置数据库。',
  },
};
