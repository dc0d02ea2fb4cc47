export const overviewEnUS = {
  overview: {
    welcome: 'Welcome, {{name}}',
    userIntro: 'Your sites, forwarding rules and packages will appear here.',
    adminIntro: 'Nodes, users, packages and system settings will appear here.',
    user: {
      account: 'Account',
      name: 'Name',
      type: 'Account type',
      email: 'Email',
      phone: 'Phone',
      balance: 'Balance',
    },
    userType: { '1': 'Administrator', '2': 'User' },
    system: {
      title: 'System information',
      siteName: 'Site name',
      register: 'Registration',
      open: 'Open',
      closed: 'Closed',
      copyright: 'Footer',
      link: 'Footer link',
    },
  },
};
