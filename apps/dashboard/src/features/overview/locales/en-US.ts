export const overviewEnUS = {
  overview: {
    welcome: 'Welcome, {{name}}',
    userIntro: 'Your sites, forwarding rules and packages will appear here.',
    adminIntro: 'Nodes, users, packages and system settings will appear here.',
  },
};
