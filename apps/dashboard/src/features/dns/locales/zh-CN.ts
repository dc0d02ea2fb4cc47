import type { LocaleOf } from '../../../shared/i18n/locales/localeShape.ts';
import type { dnsEnUS } from './en-US.ts';

export const dnsZhCN: LocaleOf<typeof dnsEnUS> = {
  dns: {
    check: {
      action: '检查解析',
      title: '域名解析情况',
      target: 'CNAME 目标：',
      points: '已指向目标',
    },
    records: {
      action: '创建 CNAME 记录',
      title: '创建 CNAME 记录',
      dnsApi: 'DNS API',
      noDnsApi: '还没有 DNS API，请先在“DNS API”中添加',
      submit: '创建记录',
      target: '每个域名都将指向 {{target}}',
      created: '已在区域 {{zone}} 中创建',
    },
    api: {
      manage: 'DNS API',
      title: 'DNS API',
      add: '添加 DNS API',
      edit: '编辑',
      delete: '删除',
      deleted: 'DNS API 已删除',
      confirmDelete: '删除 DNS API {{name}}？',
      saved: 'DNS API 已保存',
      save: '保存',
      name: '名称',
      provider: '服务商',
      updated: '最后修改',
      actions: '操作',
      url: 'PowerDNS API 地址',
      providerName: { powerdns: 'PowerDNS', cloudflare: 'Cloudflare', dnspod: 'DNSPod（腾讯云）' },
      apiToken: 'API 令牌',
      secretId: 'SecretId',
      secretKey: 'SecretKey',
      apiKey: 'API 密钥',
      serverId: '服务器 ID',
      serverIdHelp: '留空则为 localhost',
      keepCredentials: '不填写新的密钥或令牌时，已保存的凭据保持不变。',
      rule: {
        name: '请输入名称',
        url: '请输入 API 地址，例如 https://ns.example.com:8081',
        apiKey: '请输入 API 密钥（可打印字符，不含空格）',
        apiToken: '请输入具有 Zone:Read 和 DNS:Edit 权限的 Cloudflare API 令牌（可打印字符，不含空格）',
        secretId: '请输入腾讯云 SecretId（可打印字符，不含空格）',
        secretKey: '请输入腾讯云 SecretKey（可打印字符，不含空格）',
      },
    },
  },
};
