export const accountUserZhCN = {
  accountUser: {
    tab: { profile: '基本资料', password: '修改密码', twoFactor: '两步验证', certify: '实名认证' },
    profile: {
      account: '账号',
      balance: '账户余额',
      name: '姓名',
      nameRule: '最多 64 个字符，不能包含 < 或 >',
      save: '保存',
      saved: '资料已保存',
      unchanged: '没有改动',
    },
    password: {
      note: '修改后，你在其他地方的登录都会退出。',
      current: '当前密码',
      currentRequired: '请输入当前密码',
      currentWrong: '当前密码不正确',
      save: '修改密码',
      saved: '密码已修改，其他登录已退出',
    },
  },
};
