import type { LocaleOf } from '../../../shared/i18n/locales/localeShape.ts';
import type { certsEnUS } from './en-US.ts';

export const certsZhCN: LocaleOf<typeof certsEnUS> = {
  certs: {
    upload: '上传证书',
    uploadSubmit: '上传',
    uploaded: '证书已上传',
    download: '下载证书',
    inUse: '有网站正在使用此证书，请先为它们更换证书再删除',
    delete: '删除',
    deleted: '证书已删除',
    confirmDelete: '删除证书 {{name}}？只有未被网站使用的证书才能删除。',
    expired: '已过期',
    daysLeft_one: '剩余 {{count}} 天',
    daysLeft_other: '剩余 {{count}} 天',
    column: { name: '名称', names: '域名', issuer: '颁发者', expiry: '到期时间', sites: '使用的网站', actions: '操作' },
    field: {
      cert: '证书（PEM，先证书后证书链）',
      certFile: '证书文件',
      key: '私钥（PEM）',
      keyFile: '私钥文件',
    },
    rule: {
      cert: '请粘贴 PEM 证书及其证书链（最多 64 KiB）',
      key: '请粘贴证书的 PEM 私钥（最多 16 KiB）',
    },
  },
};
