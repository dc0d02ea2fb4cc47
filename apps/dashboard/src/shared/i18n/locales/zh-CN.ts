import type { commonEnUS } from './en-US.ts';
import type { LocaleOf } from './localeShape.ts';

export const commonZhCN: LocaleOf<typeof commonEnUS> = {
  common: {
    appName: 'Rampart',
    language: '语言',
    backHome: '返回首页',
    loading: '加载中…',
    total_one: '共 {{count}} 条',
    total_other: '共 {{count}} 条',
    totalCapped: '超过 {{count}} 条',
    owner: {
      column: '所有者',
      system: '系统',
      id: '用户 ID {{id}}',
      removed: '已删除的用户 {{id}}',
    },
    error: {
      chunkTitle: '页面加载失败',
      chunkText: '页面代码未能加载。请检查网络后重试。',
      renderTitle: '页面出错了',
      renderText: '错误已记录在前端日志中。',
      retry: '重试',
    },
  },
  http: {
    status: {
      '400': '请求错误',
      '401': '未授权，请登录',
      '403': '拒绝访问',
      '404': '请求地址出错: {{url}}',
      '408': '请求超时',
      '500': '服务器内部错误',
      '501': '服务未实现',
      '502': '网关错误',
      '503': '服务不可用',
      '504': '网关超时',
      '505': 'HTTP 版本不受支持',
    },
    failed: '请求失败',
    network: '网络错误',
    badResponse: '无效的响应',
  },
  route: {
    login: '登录',
    register: '注册',
    'forget-password': '忘记密码',
    '403': '无权访问',
    '404': '页面不存在',
    '500': '服务器出错',
  },
};
