import { authEnUS } from '../../apps/dashboard/src/features/auth/locales/en-US.ts';
import { authZhCN } from '../../apps/dashboard/src/features/auth/locales/zh-CN.ts';
import { financeEnUS } from '../../apps/dashboard/src/features/finance/locales/en-US.ts';
import { financeZhCN } from '../../apps/dashboard/src/features/finance/locales/zh-CN.ts';
import { packagesEnUS } from '../../apps/dashboard/src/features/packages/locales/en-US.ts';
import { packagesZhCN } from '../../apps/dashboard/src/features/packages/locales/zh-CN.ts';
import { sitesEnUS } from '../../apps/dashboard/src/features/sites/locales/en-US.ts';
import { sitesZhCN } from '../../apps/dashboard/src/features/sites/locales/zh-CN.ts';
import { userPackagesEnUS } from '../../apps/dashboard/src/features/user-packages/locales/en-US.ts';
import { userPackagesZhCN } from '../../apps/dashboard/src/features/user-packages/locales/zh-CN.ts';
import type { Language } from './page-check.ts';

/**
 * The words the journey clicks and reads, taken from the dashboard's own locale files so the same
 * steps run in zh-CN and en-US (whether each text is translated is the page check's business).
 */
export function journeyTexts(language: Language) {
  const zh = language === 'zh-CN';
  const auth = (zh ? authZhCN : authEnUS).auth;
  const finance = (zh ? financeZhCN : financeEnUS).finance;
  const packages = (zh ? packagesZhCN : packagesEnUS).packages;
  const sites = (zh ? sitesZhCN : sitesEnUS).sites;
  const userPackages = (zh ? userPackagesZhCN : userPackagesEnUS).userPackages;
  return {
    register: {
      username: auth.field.username,
      email: auth.field.email,
      emailCode: auth.code.email,
      password: auth.password.label,
      confirm: auth.password.confirm,
      strong: auth.password.level.strong,
      agreement: auth.register.agreement,
      submit: auth.register.submit,
      success: auth.register.success,
    },
    recharge: {
      amount: finance.balance.amount,
      wxpay: finance.channel.wxpay,
      submit: finance.balance.submit,
    },
    buy: { pay: userPackages.purchase.pay, paid: userPackages.purchase.paid },
    site: {
      add: sites.list.add,
      domains: sites.field.domains,
      address: sites.origin.addressOf.replace('{{index}}', '1'),
      port: sites.origin.portOf.replace('{{index}}', '1'),
      guide: sites.guide.action,
      guideTitle: sites.guide.title,
    },
    sold: {
      confirm: packages.common.confirm,
      suspended: packages.state.suspended,
      active: packages.state.active,
    },
  };
}
