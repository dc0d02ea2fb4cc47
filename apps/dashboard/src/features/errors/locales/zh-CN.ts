export const errorsZhCN = {
  forbiddenPage: {
    reason: {
      forCustomers: '此页面仅供用户账号使用',
      forAdmins: '此页面仅供管理员使用',
      customerHint: '您当前以管理员身份登录。可在用户列表中以某个用户的身份登录，查看其所见的页面。',
      adminHint: '您当前使用的是用户账号。',
      signInAsCustomer: '以用户身份登录',
      needsPermission: '您的账号缺少此页面所需的权限：{{permissions}}',
      or: '或',
    },
  },
};
